import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports, type Ports } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import type { Platform, PlatformName } from "@/lib/adapters/platforms";
import { contentHashOf } from "@/lib/domain/drafts/content-hash";
import { draftTable } from "@/lib/domain/drafts/drafts";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerContext, resolveUnknown } from "@/lib/domain/owner/owner";
import { claimDue, publishDueDraft, record, sweep } from "@/lib/domain/publishing/publish";
import { recordMany } from "@/lib/domain/publishing/batch";
import { publishNow } from "@/lib/domain/publishing/schedule";
import { postDrafts, sandboxPosts, tweetDrafts } from "@/drizzle/schema";
import { makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { configured } from "../helpers/env";
import { row, sandboxCount } from "../helpers/publishing";

// A claim that another process's stuck sweep takes from under a live claimer: the claimer
// was held up (waiting in its account's lane, looking its account up, between two parts of a
// thread) and the sweep called the draft `unknown`. The owner acts on what they are shown: an
// `unknown` draft is checked on the platform and, when nothing is there yet, settled as not
// posted and published again. So a post must never go out while its draft is `unknown`, nor
// after the sweep took it, and nothing may go out twice.
//
// Each process's time is an injected clock that the test moves as the slow steps take their
// time; the "other process" is a second scheduler pass on the same database, sharing that clock.

withDatabase();

const stuckMs = () => ports().config().PUBLISH_STUCK_SECONDS * 1000;

/** A clock the test moves, and ports whose platforms run `hooks` around the sandbox's calls. */
function slowPlatforms(hooks: {
  open?: (n: number) => Promise<void>;
  publish?: (draftId: string, type: "post" | "tweet") => Promise<void>;
  progress?: (parts: number) => Promise<void>;
  comment?: (n: number, draftId: string) => Promise<void>;
}) {
  let now = Date.now();
  const clock = () => new Date(now);
  /** Calls made while the draft (or its first comment) was shown to the owner as `unknown`. */
  const whileUnknown: string[] = [];
  let opens = 0;
  let comments = 0;
  const open = async (d: Parameters<Ports["platforms"]["open"]>[0], userId: string, name: PlatformName, accountId?: string | null): Promise<Platform> => {
    const inner = await ports().platforms.open(d, userId, name, accountId);
    await hooks.open?.(++opens);
    return {
      ...inner,
      async publish(req) {
        if ((await row(req.draftType, req.draftId)).status === "unknown") whileUnknown.push(req.draftId);
        await hooks.publish?.(req.draftId, req.draftType);
        return inner.publish({
          ...req,
          // Between a part's call and its record: where a process held up there meets the sweep.
          onProgress: async (p) => {
            await hooks.progress?.(p.parts.length);
            await req.onProgress(p);
          },
        });
      },
      async comment(req) {
        if ((await row(req.draftType, req.draftId)).firstCommentStatus === "unknown") whileUnknown.push(req.draftId);
        await hooks.comment?.(++comments, req.draftId);
        return inner.comment(req);
      },
    };
  };
  const p: Ports = { ...ports(), clock, platforms: { ...ports().platforms, open } };
  /** Another process's scheduler pass (its sweep first), on the same clock. */
  const otherPass = async () => runDue(await db(), { ports: { ...p, platforms: ports().platforms }, clock });
  return {
    ports: p,
    whileUnknown,
    move: (ms: number) => void (now += ms),
    otherPass,
    /** This process is held up past the stuck limit, and another process's pass runs meanwhile. */
    heldUp: async () => {
      now += 1.1 * stuckMs();
      await otherPass();
    },
  };
}

/** `n` LinkedIn posts of the user, due a second ago, to the network's default account. */
async function duePosts(userId: string, n: number) {
  const rows = await (
    await db()
  )
    .insert(postDrafts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        userId,
        title: `P${i}`,
        body: `Post ${i} ${randomUUID()}`,
        status: "scheduled" as const,
        scheduledFor: new Date(Date.now() - 1000),
      })),
    )
    .returning({ id: postDrafts.id });
  return rows.map((r) => r.id);
}

const owner = async (u: TestUser) => ownerContext(await db(), { id: u.id, ...(await getProfile(await db(), u.id))! }, ports());

/** The owner, shown `unknown`, checks the platform and, finding nothing, settles it as not posted and publishes it again. */
async function ownerActsOnUnknown(u: TestUser, id: string) {
  if ((await row("post", id)).status !== "unknown" || (await sandboxCount(id)) > 0) return false;
  const ctx = await owner(u);
  await resolveUnknown(ctx, { type: "post", id, posted: false });
  await publishNow({ ...ctx, shown: contentHashOf(await row("post", id)) }, { type: "post", id });
  return true;
}

describe("a claim swept from under its claimer", () => {
  it("a draft swept while it waits in its account's lane is not posted by its claimer; the owner's own publish is its only post", async () => {
    const u = await makeUser({ publishing: true });
    const [first, second] = await duePosts(u.id, 2);
    let ownerActed = false;
    const s = slowPlatforms({
      // The first post's call takes 45 % of the stuck limit, so the second, waiting behind it
      // in the account's lane (one call at a time), is taken just inside half the limit.
      publish: async (id) => {
        if (id === first) s.move(0.45 * stuckMs());
      },
      // The second post's account lookup is held up (a token refresh waiting on another
      // process, say) past the stuck limit, and another process's pass sweeps meanwhile.
      open: async (n) => {
        if (n !== 2) return;
        // The first post's outcome is written within a second, as it is without a held-up clock.
        await expect.poll(async () => (await row("post", first)).status).toBe("published");
        s.move(0.6 * stuckMs());
        await s.otherPass();
        ownerActed = await ownerActsOnUnknown(u, second);
      },
    });
    const r = await runDue(await db(), { ports: s.ports, clock: s.ports.clock, batch: 2, concurrency: 2, perAccount: 1 });
    expect(s.whileUnknown).toEqual([]);
    expect(await sandboxCount(first)).toBe(1);
    expect(await sandboxCount(second)).toBe(1); // once, whoever sent it
    expect(ownerActed).toBe(true); // the sweep did take it (else this test shows nothing)
    expect(await row("post", second)).toMatchObject({ status: "published" });
    expect(r.published).toBe(1);
  });

  it("left alone, a draft swept before its call ends failed, saying nothing was posted; it is never left unknown unposted", async () => {
    const u = await makeUser({ publishing: true });
    const [id] = await duePosts(u.id, 1);
    const s = slowPlatforms({
      open: async () => {
        await s.heldUp();
        expect((await row("post", id)).status).toBe("unknown"); // what the owner is shown meanwhile
      },
    });
    await runDue(await db(), { ports: s.ports, clock: s.ports.clock });
    expect(s.whileUnknown).toEqual([]);
    expect(await sandboxCount(id)).toBe(0);
    expect(await row("post", id)).toMatchObject({ status: "failed", failureReason: expect.stringMatching(/nothing was posted/i) });
    // The owner publishes it: it goes out once.
    const ctx = await owner(u);
    await publishNow({ ...ctx, shown: contentHashOf(await row("post", id)) }, { type: "post", id });
    expect(await sandboxCount(id)).toBe(1);
  });

  it("the Inngest path: a draft swept between its claim and its call is not posted", async () => {
    const u = await makeUser({ publishing: true });
    const [id] = await duePosts(u.id, 1);
    const s = slowPlatforms({ open: () => s.heldUp() });
    await publishDueDraft(await db(), "post", id, s.ports);
    expect(s.whileUnknown).toEqual([]);
    expect(await sandboxCount(id)).toBe(0);
    expect((await row("post", id)).status).toBe("failed");
  });

  it("a thread swept between its parts posts no further part; publishing it again sends only the rest", async () => {
    const u = await makeUser({ publishing: true });
    const d = await db();
    const [parent] = await d.insert(postDrafts).values({ userId: u.id, title: "P", body: "parent" }).returning({ id: postDrafts.id });
    const parts = [`One ${randomUUID()}`, `Two ${randomUUID()}`, `Three ${randomUUID()}`];
    const [t] = await d
      .insert(tweetDrafts)
      .values({
        userId: u.id,
        postDraftId: parent.id,
        title: "T",
        body: parts[0],
        thread: parts.slice(1).map((text) => ({ text, image_urls: [] })),
        status: "scheduled",
        scheduledFor: new Date(Date.now() - 1000),
      })
      .returning({ id: tweetDrafts.id });
    const s = slowPlatforms({
      // The process is held up right after the first part went out, past the stuck limit.
      progress: async (n) => {
        if (n === 1) await s.heldUp();
      },
    });
    await runDue(d, { ports: s.ports, clock: s.ports.clock });
    const sent = async () =>
      (
        await d
          .select({ text: sandboxPosts.text })
          .from(sandboxPosts)
          .where(and(eq(sandboxPosts.draftId, t.id), eq(sandboxPosts.platform, "micro")))
      ).map((p) => p.text);
    expect(await sent()).toEqual([parts[0]]);
    // What is out is said, not "may or may not have been posted".
    expect(await row("tweet", t.id)).toMatchObject({ status: "failed", failureReason: expect.stringMatching(/part 1 of 3/) });
    const ctx = await owner(u);
    await publishNow({ ...ctx, shown: contentHashOf(await row("tweet", t.id)) }, { type: "tweet", id: t.id });
    expect((await sent()).sort()).toEqual([...parts].sort());
    expect((await row("tweet", t.id)).status).toBe("published");
  });

  it("first comments waiting behind slow ones are not swept and then posted: each goes out once and is shown posted", async () => {
    const u = await makeUser({ publishing: true });
    const d = await db();
    const ids = (
      await d
        .insert(postDrafts)
        .values(
          Array.from({ length: 3 }, (_, i) => ({
            userId: u.id,
            title: `P${i}`,
            body: `Out ${i}`,
            status: "published" as const,
            publishedAt: new Date(),
            platformPostId: randomUUID(), // the sandbox's post ids
            firstComment: `Comment ${i}`,
            firstCommentStatus: "pending" as const,
          })),
        )
        .returning({ id: postDrafts.id })
    ).map((r) => r.id);
    let swept = false;
    const s = slowPlatforms({
      // Each comment takes 60 % of the stuck limit; another process's pass runs during the second.
      comment: async (n) => {
        s.move(0.6 * stuckMs());
        if (n === 2 && !swept) {
          swept = true;
          await s.otherPass();
        }
      },
    });
    await runDue(d, { ports: s.ports, clock: s.ports.clock });
    expect(s.whileUnknown).toEqual([]);
    const comments = await d
      .select({ draftId: sandboxPosts.draftId })
      .from(sandboxPosts)
      .where(and(inArray(sandboxPosts.draftId, ids), eq(sandboxPosts.part, -1)));
    expect(comments.map((c) => c.draftId).sort()).toEqual([...ids].sort());
    const t = draftTable("post");
    const states = await d.select({ status: t.firstCommentStatus }).from(t).where(inArray(t.id, ids));
    expect(states.map((x) => x.status)).toEqual(["posted", "posted", "posted"]);
  });

  it("a call that runs longer than the stuck limit keeps its claim: another process's sweep leaves it publishing", async () => {
    // Real time here: the claim is renewed on a timer while the call runs.
    await configured({ PUBLISH_STUCK_SECONDS: "2" }, async () => {
      const u = await makeUser({ publishing: true });
      const [id] = await duePosts(u.id, 1);
      const seen: string[] = [];
      const open = async (d: Parameters<Ports["platforms"]["open"]>[0], userId: string, name: PlatformName, accountId?: string | null): Promise<Platform> => {
        const inner = await ports().platforms.open(d, userId, name, accountId);
        return {
          ...inner,
          async publish(req) {
            // Twice the limit; other processes sweep three times meanwhile.
            for (let k = 0; k < 3; k++) {
              await new Promise((r) => setTimeout(r, 1300));
              await runDue(await db());
              seen.push((await row("post", id)).status);
            }
            return inner.publish(req);
          },
        };
      };
      await runDue(await db(), { ports: { ...ports(), platforms: { ...ports().platforms, open } } });
      expect(seen).toEqual(["publishing", "publishing", "publishing"]);
      expect(await row("post", id)).toMatchObject({ status: "published" });
      expect(await sandboxCount(id)).toBe(1);
    });
  }, 30_000);

  it("a late outcome of a claim the sweep took never overwrites the draft's next claim", async () => {
    const u = await makeUser({ publishing: true });
    const [id] = await duePosts(u.id, 1);
    const d = await db();
    const c = ports().config();
    const t0 = new Date();
    const [old] = await claimDue(d, t0, 10, c);
    expect(old.id).toBe(id);
    // Taken for stuck; the owner settles it as not posted and schedules it again; it is claimed anew.
    const later = new Date(t0.getTime() + stuckMs() + 1000);
    await d.transaction((tx) => sweep(tx, later, c));
    expect((await row("post", id)).status).toBe("unknown");
    await d.update(postDrafts).set({ status: "scheduled", scheduledFor: later, firstAttemptAt: null, failureReason: null }).where(eq(postDrafts.id, id));
    const [fresh] = await claimDue(d, later, 10, c);
    expect(fresh.id).toBe(id);
    // The old claim's outcomes arrive now: none of them is this claim's.
    const at = new Date();
    await d.transaction((tx) => record(tx, old, { status: "failed", platform: "pronet", reason: "LinkedIn refused the post (400)." }, at));
    await d.transaction((tx) => recordMany(tx, [{ c: old, o: { status: "published", platform: "pronet", postId: "old", url: null }, at }]));
    expect(await row("post", id)).toMatchObject({ status: "publishing", failureReason: null, platformPostId: null });
    await d.transaction((tx) => recordMany(tx, [{ c: fresh, o: { status: "published", platform: "pronet", postId: "new", url: null }, at }]));
    expect(await row("post", id)).toMatchObject({ status: "published", platformPostId: "new" });
  });
});
