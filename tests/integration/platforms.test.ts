import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { scheduleContentOp } from "@/lib/operations/publishing/schedule-content";
import { littleText } from "@/lib/adapters/platforms/linkedin";
import { accessToken, type Refresher } from "@/lib/adapters/platforms/tokens";
import { PublishError } from "@/lib/domain/networks/platform";
import { runDue } from "@/lib/adapters/scheduler";
import { authAccounts, postDrafts, tweetDrafts } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, draft, inSeconds, row } from "../helpers/publishing";

withDatabase();

const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const { connect } = platforms;

const account = async (u: TestUser) => (await (await db()).select().from(authAccounts).where(eq(authAccounts.userId, u.id)))[0];
const publisher = async () => {
  const u = await makeUser({ publishing: true });
  await connect(u, "linkedin");
  await connect(u, "twitter");
  return u;
};

/** Scheduled for a second ago (the scheduler's clock is given from there): that moment. */
async function dueASecondAgo(type: "post" | "tweet", id: string): Promise<number> {
  const t0 = Date.now() - 1000;
  const table = type === "tweet" ? tweetDrafts : postDrafts;
  await (
    await db()
  )
    .update(table)
    .set({ status: "scheduled", scheduledFor: new Date(t0) })
    .where(eq(table.id, id));
  return t0;
}

describe("LinkedIn adapter", () => {
  it("posts through the Posts API with escaped little text (a hashtag's # kept) and returns the URN and link", async () => {
    expect(littleText("a (b) [c] {d} <e> #f *g* _h_ ~i @j |k \\l C# x#y # #")).toBe(
      "a \\(b\\) \\[c\\] \\{d\\} \\<e\\> #f \\*g\\* \\_h\\_ \\~i \\@j \\|k \\\\l C\\# x\\#y \\# \\#",
    );
    const u = await publisher();
    const text = `Lessons (part 1) #growth ${randomUUID()}`;
    const d = await draft(u, "post", text);
    const ok = expectOk(await approved(u, "publish_now", { type: "post", id: d.id }), publishNowOp.output);
    expect(ok.platform_post_id).toMatch(/^urn:li:share:\d+$/);
    expect(ok.url).toBe(`https://www.linkedin.com/feed/update/${ok.platform_post_id}`);
    expect(platforms.fake.count("linkedin", text)).toBe(1); // as a reader sees it
  });

  it("asks the owner to connect LinkedIn when app credentials exist but no account is connected", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(120).toISOString() }, { token: u.token });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toContain("LinkedIn");
  });

  it("a duplicate answer fails the draft with its reason and posts nothing", async () => {
    const u = await publisher();
    const d = await draft(u, "post", `dup ${randomUUID()}`);
    platforms.fake.misbehave("linkedin", "duplicate");
    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expectError(res, 422, "action_failed");
    const r = await row("post", d.id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/duplicate/i);
    expect(platforms.fake.posts.linkedin.filter((p) => p.includes(r.body.slice(4)))).toHaveLength(0);
  });

  it("a revoked token that cannot be renewed fails the draft and marks the connection", async () => {
    const u = await makeUser({ publishing: true });
    await connect(u, "linkedin", { valid: false, refresh: "not-the-current-refresh-token" });
    const d = await draft(u, "post", `revoked ${randomUUID()}`);
    expectError(await approved(u, "publish_now", { type: "post", id: d.id }), 422, "action_failed");
    expect((await row("post", d.id)).status).toBe("failed");
    expect((await account(u)).status).toBe("needs_reconnect");
    expect(platforms.fake.posts.linkedin.some((p) => p.includes("revoked"))).toBe(false);
    const again = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(120).toISOString() }, { token: u.token });
    expectError(again, 422, "action_failed");
    expect(again.body.error.message).toMatch(/reconnect/);
  });
});

describe("X adapter", () => {
  it("publishes a scheduled tweet once, on time, with the exact request shape", async () => {
    const u = await publisher();
    const text = `Tweet ${randomUUID()}`;
    const d = await draft(u, "tweet", text);
    const at = inSeconds(120);
    expectOk(await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    await runDue(await db(), { clock: () => new Date(at.getTime() - 100) });
    expect(platforms.fake.count("x", text)).toBe(0);
    await runDue(await db(), { clock: () => new Date(at.getTime() + 100) });
    await runDue(await db(), { clock: () => new Date(at.getTime() + 200) });
    expect(platforms.fake.count("x", text)).toBe(1);
    const r = await row("tweet", d.id);
    expect(r.status).toBe("published");
    expect(r.platformUrl).toBe(`https://x.com/writer/status/${r.platformPostId}`);
  });

  it("refreshes an expired token exactly once for concurrent publishes and stores the rotated pair", async () => {
    const u = await makeUser({ publishing: true });
    platforms.fake.tokens.x.refresh = `x-refresh-${randomUUID()}`;
    await connect(u, "twitter", { expired: true, valid: false, refresh: platforms.fake.tokens.x.refresh });
    const before = platforms.fake.refreshes.x;
    const texts = Array.from({ length: 5 }, (_, i) => `Concurrent ${i} ${randomUUID()}`);
    const at = new Date(Date.now() - 1000);
    const d = await db();
    for (const text of texts) {
      const t = await draft(u, "tweet", text);
      await d.update(tweetDrafts).set({ status: "scheduled", scheduledFor: at }).where(eq(tweetDrafts.id, t.id));
    }
    await Promise.all([runDue(d, { concurrency: 5 }), runDue(d, { concurrency: 5 })]);
    expect(platforms.fake.refreshes.x - before).toBe(1);
    for (const text of texts) expect(platforms.fake.count("x", text)).toBe(1);
    const acc = await account(u);
    expect(acc.refresh_token).toBe(platforms.fake.tokens.x.refresh);
    expect(platforms.fake.tokens.x.access.has(acc.access_token!)).toBe(true);
    expect(acc.refreshLockedUntil).toBeNull();
  });

  it("a refresh refused because another holder renewed the account meanwhile uses that renewal, and does not ask for a reconnect", async () => {
    // A refresh longer than its lock (or a holder given up for dead) lets a second process
    // refresh with the same rotating token; the platform then refuses the later one.
    const u = await makeUser({ publishing: true });
    await connect(u, "twitter", { expired: true, valid: false, refresh: "x-refresh-old" });
    const d = await db();
    const acc = await account(u);
    const renewedMeanwhile: Refresher = async () => {
      await d
        .update(authAccounts)
        .set({ access_token: "x-access-renewed", refresh_token: "x-refresh-renewed", expires_at: Math.floor(Date.now() / 1000) + 7200 })
        .where(eq(authAccounts.userId, u.id));
      throw new PublishError("failed", "X refused to renew the access (400: invalid_grant)");
    };
    expect(await accessToken(d, acc, renewedMeanwhile, "X")).toBe("x-access-renewed");
    expect(await account(u)).toMatchObject({ status: "connected", refresh_token: "x-refresh-renewed", refreshLockedUntil: null });
    // Refused with nobody's renewal in between: the owner must reconnect, as before.
    const v = await makeUser({ publishing: true });
    await connect(v, "twitter", { expired: true, valid: false, refresh: "x-refresh-revoked" });
    const refused: Refresher = async () => {
      throw new PublishError("failed", "X refused to renew the access (400: invalid_grant)");
    };
    await expect(accessToken(d, await account(v), refused, "X")).rejects.toMatchObject({ kind: "failed" });
    expect((await account(v)).status).toBe("needs_reconnect");
  });

  it("429 puts the tweet back with the reset time, then publishes it once", async () => {
    const u = await publisher();
    const text = `Rate limited ${randomUUID()}`;
    const d = await draft(u, "tweet", text);
    platforms.fake.misbehave("x", "429");
    expectError(await approved(u, "publish_now", { type: "tweet", id: d.id }), 422, "action_failed");
    const r = await row("tweet", d.id);
    expect(r.status).toBe("scheduled");
    expect(r.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(Date.now() + 50_000);
    await runDue(await db());
    expect(platforms.fake.count("x", text)).toBe(0);
    await runDue(await db(), { clock: () => new Date(r.nextAttemptAt!.getTime() + 1000) });
    expect(platforms.fake.count("x", text)).toBe(1);
    expect((await row("tweet", d.id)).status).toBe("published");
  });

  it("a retry leaves the draft's updated_at alone, so a client's if_updated_at still holds", async () => {
    const u = await publisher();
    const d = await draft(u, "tweet", `Retried ${randomUUID()}`);
    const before = (await row("tweet", d.id)).updatedAt.toISOString();
    platforms.fake.misbehave("x", "429");
    expectError(await approved(u, "publish_now", { type: "tweet", id: d.id }), 422, "action_failed");
    const r = await row("tweet", d.id);
    expect(r.status).toBe("scheduled");
    expect(r.claimedAt).not.toBeNull();
    expect(r.updatedAt.toISOString()).toBe(before);
    // A tag-only edit needs no approval; the guard taken before the retry still matches.
    const edit = await call("update_draft", { type: "tweet", id: d.id, hashtags: ["later"], if_updated_at: before }, { token: u.token });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    platforms.fake.calm();
  });

  it("server errors are retried with backoff for 30 minutes, then the draft fails", async () => {
    const u = await publisher();
    const text = `Flaky ${randomUUID()}`;
    const d = await draft(u, "tweet", text);
    const t0 = await dueASecondAgo("tweet", d.id);
    platforms.fake.misbehave("x", ...Array<"500">(20).fill("500"));
    for (let m = 0; m <= 40; m += 5) await runDue(await db(), { clock: () => new Date(t0 + 1000 + m * 60_000) });
    const r = await row("tweet", d.id);
    expect(r.status).toBe("failed");
    expect(r.publishAttempts).toBeGreaterThanOrEqual(3);
    expect(r.failureReason).toMatch(/30 minutes/);
    expect(platforms.fake.count("x", text)).toBe(0);
    platforms.fake.calm();
  });

  it("a timeout or a cut connection after sending leaves the draft unknown and never re-posts it", async () => {
    const u = await publisher();
    for (const kind of ["timeout", "reset"] as const) {
      const text = `Unknown ${kind} ${randomUUID()}`;
      const d = await draft(u, "tweet", text);
      platforms.fake.misbehave("x", kind);
      const res = await approved(u, "publish_now", { type: "tweet", id: d.id });
      expectError(res, 422, "action_failed");
      const r = await row("tweet", d.id);
      expect(r.status).toBe("unknown");
      expect(r.failureReason).toMatch(/may or may not/);
      await runDue(await db(), { clock: () => new Date(Date.now() + 3600_000) });
      expectError(await approved(u, "publish_now", { type: "tweet", id: d.id }), 422, "action_failed");
      expect(platforms.fake.count("x", text)).toBe(1);
    }
  });

  // A 502 after the network posted; the next attempt is told the text is already there.
  it.each([
    ["a tweet retried by the scheduler", "tweet", "x", false, "scheduler"],
    ["a thread retried by the scheduler", "tweet", "x", true, "scheduler"],
    ["a post retried by the scheduler", "post", "linkedin", false, "scheduler"],
    ["a post the owner publishes now while it waits for its retry", "post", "linkedin", false, "publish_now"],
  ] as const)("%s, refused as a duplicate, is left unknown (posted once), not failed", async (_, type, route, thread, retry) => {
    const u = await publisher();
    const text = `Hidden success ${randomUUID()}`;
    const d = thread
      ? expectOk(await call("create_draft", { type, body: text, thread: ["And a second part."] }, { token: u.token }), createDraftOp.output)
      : await draft(u, type, text);
    const t0 = await dueASecondAgo(type, d.id);
    platforms.fake.misbehave(route, "created502", "duplicate");
    await runDue(await db(), { clock: () => new Date(t0 + 1000) });
    expect((await row(type, d.id)).status).toBe("scheduled"); // a 502: retried
    if (retry === "scheduler") await runDue(await db(), { clock: () => new Date(t0 + 5 * 60_000) });
    else expectError(await approved(u, "publish_now", { type, id: d.id }), 422, "action_failed");
    const r = await row(type, d.id);
    expect(r.status, r.failureReason ?? "").toBe("unknown");
    expect(r.failureReason).toMatch(/duplicate.*may have posted it after all/);
    expect(platforms.fake.posts[route].filter((p) => p.includes(text.slice(-36)))).toHaveLength(1);
  });

  it("a duplicate answer fails the tweet", async () => {
    const u = await publisher();
    const d = await draft(u, "tweet", `Dup ${randomUUID()}`);
    platforms.fake.misbehave("x", "duplicate");
    expectError(await approved(u, "publish_now", { type: "tweet", id: d.id }), 422, "action_failed");
    const r = await row("tweet", d.id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/duplicate/);
  });
});
