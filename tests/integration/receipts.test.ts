import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports, type Ports } from "@/lib/adapters/ports";
import { checkReceipts } from "@/lib/domain/publishing/receipts";
import { notifyOwners } from "@/lib/domain/owner/notifications";
import { signInScopes } from "@/lib/domain/networks/scopes";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import type { Mail } from "@/lib/domain/ports";
import { draftEvents, postDrafts, tweetDrafts, webhookEvents, xSpend } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { asOwner } from "../helpers/owner";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, draft, row } from "../helpers/publishing";

// Receipts: a few minutes after publishing, and again after an hour (RECEIPTS_AFTER's default),
// the post is read back from the network through the real adapters against the contract
// fakes: still there (confirmed), or gone (LinkedIn can drop a post in post-processing after
// answering 201). A post that is gone becomes `removed`, the owner is told and a webhook event
// goes out; the history shows every read.

withDatabase();
const platforms = withFakePlatforms();
const fake = () => platforms.fake;
const M = 60_000;
const H = 60 * M;

/** One receipt pass as if it were `at`. */
const pass = async (at: Date) => checkReceipts(await db(), { ...ports(), clock: () => at });

async function published(u: TestUser, type: "post" | "tweet") {
  const d = await draft(u, type, `Still there? ${randomUUID()}`);
  const ok = expectOk(await approved(u, "publish_now", { type, id: d.id }), publishNowOp.output) as { platform_post_id: string };
  const { publishedAt } = await row(type, d.id);
  return { id: d.id, postId: ok.platform_post_id, at: publishedAt! };
}

const historyOf = async (id: string) =>
  (await (await db()).select().from(draftEvents).where(eq(draftEvents.draftId, id)).orderBy(asc(draftEvents.createdAt)))
    .map((e) => [e.kind, e.detail.window ?? null])
    .filter(([k]) => k !== "created" && k !== "published");

async function hook(u: TestUser) {
  const res = await call("manage_webhooks", { action: "create", url: "http://127.0.0.1:9/receipts", events: ["post.removed"] }, { token: u.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("receipts", () => {
  beforeEach(async () => {
    // A pass reads every owner's due posts: each test starts with none left from the one before.
    for (const t of [postDrafts, tweetDrafts]) await (await db()).update(t).set({ receiptDone: true });
  });

  it("LinkedIn: confirmed at 5 minutes; dropped after that, it is removed at 1 hour, the owner is told and a webhook event goes out", async () => {
    const u = await makeUser({ publishing: true });
    // Reading a member's post back takes r_member_social (Posts API, "Retrieve Posts").
    await platforms.connect(u, "linkedin", { scopes: [...signInScopes("linkedin"), "r_member_social"] });
    await hook(u);
    const p = await published(u, "post");

    await pass(new Date(p.at.getTime() + 5 * M - 1000));
    expect(await historyOf(p.id)).toEqual([]);
    await pass(new Date(p.at.getTime() + 5 * M + 1000));
    await pass(new Date(p.at.getTime() + 5 * M + 2000));
    expect(await historyOf(p.id)).toEqual([["receipt_confirmed", "5m"]]);
    expect((await row("post", p.id)).status).toBe("published");

    // LinkedIn drops the post in post-processing.
    fake().drop("linkedin", p.postId);
    await pass(new Date(p.at.getTime() + H + 1000));
    expect(await historyOf(p.id)).toEqual([
      ["receipt_confirmed", "5m"],
      ["removed", "1h"],
    ]);
    const r = await row("post", p.id);
    expect(r.status).toBe("removed");
    expect(r.failureReason).toMatch(/LinkedIn no longer has this post/);
    const item = expectOk(await call("fetch_item", { type: "post", id: p.id }, { token: u.token }), fetchItemOp.output) as { status: string; notes: string[] };
    expect(item.status).toBe("removed");
    expect(item.notes.join(" ")).toMatch(/Removed: LinkedIn no longer has this post/);

    const [ev] = await (
      await db()
    )
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.userId, u.id), eq(webhookEvents.type, "post.removed")));
    expect(ev.payload).toMatchObject({ data: { type: "post", id: p.id, platform: "pronet", url: expect.stringContaining(p.postId) } });

    const mails: Mail[] = [];
    const mail = { configured: () => true, send: async (m: Mail) => void mails.push(m) };
    await notifyOwners(await db(), { ...ports(), mail } as Ports, new Date());
    await notifyOwners(await db(), { ...ports(), mail } as Ports, new Date());
    const mine = mails.filter((m) => m.to === u.email && m.subject.includes("removed"));
    expect(mine).toHaveLength(1);
    expect(mine[0].subject).toMatch(/^A post was removed from LinkedIn after it was published:/);

    // Removed is final: it is not published, scheduled or edited again (a new draft is).
    const again = await call("publish_now", { type: "post", id: p.id }, { token: u.token });
    expectError(again, 422, "action_failed");
    expect(again.body.error.message).toMatch(/removed by the network/);
    expectError(await call("update_draft", { type: "post", id: p.id, body: "Changed" }, { token: u.token }), 422, "action_failed");

    // Nothing more is read: the schedule is over.
    const reads = fake().receiptReads.length;
    await pass(new Date(p.at.getTime() + 30 * H));
    expect(fake().receiptReads.length).toBe(reads);
  });

  it("LinkedIn: a read LinkedIn refuses (no r_member_social) is noted as unchecked; the post stays published", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "linkedin");
    const p = await published(u, "post");
    await pass(new Date(p.at.getTime() + 5 * M + 1000));
    expect(await historyOf(p.id)).toEqual([["receipt_unchecked", "5m"]]);
    const [e] = await (
      await db()
    )
      .select()
      .from(draftEvents)
      .where(and(eq(draftEvents.draftId, p.id), eq(draftEvents.kind, "receipt_unchecked")));
    expect(e.detail.reason).toMatch(/r_member_social/);
    expect((await row("post", p.id)).status).toBe("published");
  });

  it("X: a tweet deleted after it was posted is removed at the next read", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const t = await published(u, "tweet");
    await pass(new Date(t.at.getTime() + 5 * M + 1000));
    fake().drop("x", t.postId);
    await pass(new Date(t.at.getTime() + H + 1000));
    expect(await historyOf(t.id)).toEqual([
      ["receipt_confirmed", "5m"],
      ["removed", "1h"],
    ]);
    expect((await row("tweet", t.id)).status).toBe("removed");
  });

  it("X: a read back is a post read X charges: counted on the account, and refused before X is asked past the cap", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const spent = async () => (await (await db()).select().from(xSpend).where(eq(xSpend.userId, u.id))).filter((r) => r.kind === "read").map((r) => r.micros);
    const t = await published(u, "tweet");
    await pass(new Date(t.at.getTime() + 5 * M + 1000));
    expect(await spent()).toEqual([5_000]);
    // A cap the tweet has already taken up to its last tenth, which reads may not use.
    const profile = (await call("get_profile_context", {}, { token: u.token })).body as { accounts: { account_id: string; platform: string }[] };
    const account = profile.accounts.find((a) => a.platform === "micro")!.account_id;
    const capped = await asOwner(u, "change_account", { account_id: account, action: "set_monthly_cap", monthly_cap_usd: 0.02 });
    expect(capped.status, JSON.stringify(capped.body)).toBe(200);
    const asked = fake().receiptReads.filter((r) => r.id === t.postId).length;
    await pass(new Date(t.at.getTime() + H + 1000));
    expect(fake().receiptReads.filter((r) => r.id === t.postId).length).toBe(asked);
    expect(await spent()).toEqual([5_000]);
    expect(await historyOf(t.id)).toEqual([
      ["receipt_confirmed", "5m"],
      ["receipt_unchecked", "1h"],
    ]);
    expect((await row("tweet", t.id)).status).toBe("published");
  });
});
