import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import { accountHealth } from "@/lib/domain/accounts/health";
import { draftHistory } from "@/lib/domain/drafts/history";
import { notifyOwners } from "@/lib/domain/owner/notifications";
import type { Mail } from "@/lib/domain/ports";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { getAnalyticsOp } from "@/lib/operations/analytics/get-analytics";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { scheduleContentOp } from "@/lib/operations/publishing/schedule-content";
import { postMetrics, xSpend } from "@/drizzle/schema";
import { collectDue } from "@/lib/domain/metrics/collect";
import { confirmationForm } from "@/lib/transports/mcp/approvals/elicitation";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { asOwner } from "../helpers/owner";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { reconfigure } from "../helpers/env";
import { approved, inSeconds, row } from "../helpers/publishing";

// What X charges a self-serve app and what it refuses it (x-docs: pricing, post creation
// restrictions, credits), through the real X adapter to the fake of X holding those rules.

withDatabase();

const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const fake = () => platforms.fake;

afterEach(() => {
  fake().xSelfServe = false;
  fake().xCredits = null;
});

async function publisher() {
  const u = await makeUser({ publishing: true });
  await platforms.connect(u, "twitter");
  const profile = (await call("get_profile_context", {}, { token: u.token })).body as { accounts: { account_id: string; platform: string }[] };
  return { u, account: profile.accounts.find((a) => a.platform === "micro")!.account_id };
}

const create = async (u: TestUser, args: Record<string, unknown>) =>
  expectOk(await call("create_draft", { type: "tweet", ...args }, { token: u.token }), createDraftOp.output) as { id: string };
const history = async (u: TestUser, id: string) => (await draftHistory(await db(), u.id, "tweet", id)).filter((e) => e.kind !== "created");
const sentToX = (tag: string) => fake().requests.filter((r) => r.route === "x" && JSON.stringify(r.body).includes(tag));
const setCap = (u: TestUser, account: string, dollars: number | null) =>
  asOwner(u, "change_account", { account_id: account, action: "set_monthly_cap", monthly_cap_usd: dollars });

describe("X's prices", () => {
  it("each publish records its estimate: $0.20 for a tweet with a link, $0.015 without", async () => {
    const { u, account } = await publisher();
    const tag = randomUUID().slice(0, 8);
    const link = await create(u, { body: `Read this ${tag}: https://example.com/a` });
    const plain = await create(u, { body: `Just words ${tag}` });
    expectOk(await approved(u, "publish_now", { type: "tweet", id: link.id }), publishNowOp.output);
    expectOk(await approved(u, "publish_now", { type: "tweet", id: plain.id }), publishNowOp.output);
    expect((await history(u, link.id)).find((e) => e.kind === "published")?.detail).toMatchObject({ estimate: "about $0.20 on X" });
    expect((await history(u, plain.id)).find((e) => e.kind === "published")?.detail).toMatchObject({ estimate: "about $0.015 on X" });
    const spent = await (await db()).select().from(xSpend).where(eq(xSpend.accountId, account));
    expect(spent.map((s) => s.micros).sort((a, b) => a - b)).toEqual([15_000, 200_000]);
    // A month's estimate per X account, in analytics.
    const a = expectOk(await call("get_analytics", { area: "x_spend" }, { token: u.token }), getAnalyticsOp.output);
    expect(a.x_spend).toEqual([{ account: "@writer", month: new Date().toISOString().slice(0, 7), estimate_usd: 0.215, cap_usd: null }]);
  });
});

describe("the price before the owner approves", () => {
  const caller = (u: TestUser) => ({ userId: u.id, appName: "Assistant", timezone: "UTC" }) as Parameters<typeof confirmationForm>[1];

  it("the approval request and the MCP approval text say $0.20 for a tweet with a URL and $0.015 without", async () => {
    const { u } = await publisher();
    const link = await create(u, { body: `With a link https://example.com/${randomUUID()}` });
    const plain = await create(u, { body: `Without ${randomUUID()}` });
    const asked = await call("publish_now", { type: "tweet", id: link.id }, { token: u.token });
    expectError(asked, 403, "confirmation_required");
    expect(asked.body.error.message).toContain("It costs about $0.20 on X: it contains a link.");
    expect((await confirmationForm(await db(), caller(u), asked.body.error.confirmation)).message).toContain("Cost: about $0.20 on X: it contains a link");
    const other = await call("publish_now", { type: "tweet", id: plain.id }, { token: u.token });
    expect(other.body.error.message).toContain("It costs about $0.015 on X.");
    const form = (await confirmationForm(await db(), caller(u), other.body.error.confirmation)).message;
    expect(form).toContain("Cost: about $0.015 on X\n");
    expect(form).not.toContain("may refuse");
  });

  it("a thread's price counts each part, and the text says beforehand that X may refuse its replies", async () => {
    const { u } = await publisher();
    const d = await create(u, { body: `Part one ${randomUUID()}`, thread: ["Part two https://example.com"], first_comment: "Thanks" });
    const asked = await call("schedule_content", { type: "tweet", id: d.id, scheduled_for: inSeconds(600).toISOString() }, { token: u.token });
    const form = (await confirmationForm(await db(), caller(u), asked.body.error.confirmation)).message;
    expect(form).toContain("Cost: about $0.23 on X for 3 posts (a thread of 2 and a first comment); 1 contains a link");
    expect(form).toMatch(/X may refuse the thread's further parts and the first comment: since 2026-02-23/);
  });

  it("LinkedIn posts carry no price", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "linkedin");
    const d = expectOk(
      await call("create_draft", { type: "post", body: `Hello https://example.com ${randomUUID()}` }, { token: u.token }),
      createDraftOp.output,
    );
    const asked = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    expect(asked.body.error.message).not.toContain("costs");
    expect((await confirmationForm(await db(), caller(u), asked.body.error.confirmation)).message).not.toContain("Cost:");
  });
});

describe("a monthly cap per X account", () => {
  it("refuses a publish that would pass it before any request reaches X, leaving the draft as it was", async () => {
    const { u, account } = await publisher();
    expect((await setCap(u, account, 0.1)).body).toEqual({ changed: true });
    const tag = randomUUID().slice(0, 8);
    const d = await create(u, { body: `Costly ${tag} https://example.com` });
    const res = await call("publish_now", { type: "tweet", id: d.id }, { token: u.token });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toMatch(/monthly cap of \$0\.10/);
    expect(res.body.error.message).toContain("about $0.20");
    expect(sentToX(tag)).toHaveLength(0);
    expect((await row("tweet", d.id)).status).toBe("draft");
    // Without the link it fits: $0.015.
    const cheap = await create(u, { body: `Cheap ${tag}` });
    expectOk(await approved(u, "publish_now", { type: "tweet", id: cheap.id }), publishNowOp.output);
    expect(sentToX(tag)).toHaveLength(1);
  });

  it("a scheduled tweet that would pass it fails with the cap as its reason, and X gets nothing", async () => {
    const { u, account } = await publisher();
    const tag = randomUUID().slice(0, 8);
    const d = await create(u, { body: `Later ${tag} https://example.com` });
    const at = inSeconds(60);
    expectOk(await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    await setCap(u, account, 0.05);
    await runDue(await db(), { clock: () => new Date(at.getTime() + 500) });
    const r = await row("tweet", d.id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/monthly cap of \$0\.05/);
    expect(sentToX(tag)).toHaveLength(0);
  });

  it("a first comment is a post: recorded at its price, and refused alone when it would pass the cap", async () => {
    const { u, account } = await publisher();
    const tag = randomUUID().slice(0, 8);
    const d = await create(u, { body: `Post ${tag}`, first_comment: `More at https://example.com/${tag}` });
    expectOk(await approved(u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
    expect((await row("tweet", d.id)).firstCommentStatus).toBe("posted");
    const spent = await (await db()).select().from(xSpend).where(eq(xSpend.accountId, account));
    expect(spent.map((s) => s.micros).sort((a, b) => a - b)).toEqual([15_000, 200_000]);

    await setCap(u, account, 0.25);
    const e = await create(u, { body: `Again ${tag}`, first_comment: `And at https://example.com/${tag}` });
    expectOk(await approved(u, "publish_now", { type: "tweet", id: e.id }), publishNowOp.output);
    const r = await row("tweet", e.id);
    expect([r.status, r.firstCommentStatus]).toEqual(["published", "failed"]);
    expect(r.firstCommentReason).toMatch(/monthly cap of \$0\.25/);
    expect(sentToX(`And at https://example.com/${tag}`)).toHaveLength(0);
  });

  it("is the owner's, and only for X accounts", async () => {
    const { u, account } = await publisher();
    const other = await makeUser({ publishing: true });
    expect((await setCap(other, account, 1)).body).toEqual({ changed: false });
    await platforms.connect(u, "linkedin");
    const profile = (await call("get_profile_context", {}, { token: u.token })).body as { accounts: { account_id: string; platform: string }[] };
    const li = profile.accounts.find((a) => a.platform === "pronet")!;
    expectError(await setCap(u, li.account_id, 1), 400, "invalid_request");
    expectError(await asOwner(u, "change_account", { account_id: account, action: "set_monthly_cap" }), 400, "invalid_request");
  });
});

describe("metrics reads under the cap", () => {
  const H = 3600_000;
  const collect = async (at: Date) => collectDue(await db(), { ...ports(), clock: () => at });
  const readsOf = (postId: string) => fake().reads.filter((r) => r.ids.includes(postId)).length;
  async function tweeted(u: TestUser) {
    const d = await create(u, { body: `Engaging ${randomUUID()}` });
    const ok = expectOk(await approved(u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output) as { platform_post_id: string };
    return { id: d.id, postId: ok.platform_post_id, at: (await row("tweet", d.id)).publishedAt! };
  }

  it("each post read is counted in dollars ($0.005) on the account", async () => {
    const { u, account } = await publisher();
    const t = await tweeted(u);
    await collect(new Date(t.at.getTime() + H + 1000));
    expect(readsOf(t.postId)).toBe(1);
    const reads = await (await db()).select().from(xSpend).where(eq(xSpend.accountId, account));
    expect(reads.filter((r) => r.kind === "read").map((r) => r.micros)).toEqual([5_000]);
  });

  it("stop first: past nine tenths of the cap a read is refused before X is asked, while a post still fits", async () => {
    const { u, account } = await publisher();
    const t = await tweeted(u);
    await setCap(u, account, 1);
    // Spent earlier this month: with the tweet, $0.90 of $1.
    await (await db()).insert(xSpend).values({ userId: u.id, accountId: account, kind: "post", micros: 885_000 });
    await collect(new Date(t.at.getTime() + H + 1000));
    expect(readsOf(t.postId)).toBe(0);
    const [m] = await (await db()).select().from(postMetrics).where(eq(postMetrics.draftId, t.id));
    expect(m.note).toMatch(/Reading engagement on X .* would pass the monthly cap of \$1\.00.*kept for posts/);
    // A post ($0.015) still goes out: $0.915 of $1.
    expectOk(await approved(u, "publish_now", { type: "tweet", id: (await create(u, { body: `Still fits ${randomUUID()}` })).id }), publishNowOp.output);
  });

  it("the developer app owner's tweets are read through owned reads, at $0.001 a post", async () => {
    const owner = String(1_000_000_000 + Math.floor(Math.random() * 1e9));
    const restore = reconfigure({ X_APP_OWNER_ID: owner });
    try {
      const u = await makeUser({ publishing: true });
      await platforms.connect(u, "twitter", { id: owner });
      const profile = (await call("get_profile_context", {}, { token: u.token })).body as { accounts: { account_id: string; platform: string }[] };
      const account = profile.accounts.find((a) => a.platform === "micro")!.account_id;
      const t = await tweeted(u);
      fake().engagement.set(t.postId, { impressions: 10, likes: 3, replies: 1, reposts: 2, clicks: 0 });
      await collect(new Date(t.at.getTime() + H + 1000));
      expect(fake().reads.filter((r) => r.ids.includes(t.postId))).toEqual([{ route: "x", ids: [t.postId], owned: true }]);
      const [m] = await (await db()).select().from(postMetrics).where(eq(postMetrics.draftId, t.id));
      expect(m).toMatchObject({ likes: 3, reposts: 2, note: null });
      const reads = await (await db()).select().from(xSpend).where(eq(xSpend.accountId, account));
      expect(reads.filter((r) => r.kind === "read").map((r) => r.micros)).toEqual([1_000]);
    } finally {
      restore();
    }
  });

  it("a 402 on a read notes why and says so in account health", async () => {
    const { u } = await publisher();
    const t = await tweeted(u);
    fake().xCredits = 0;
    await collect(new Date(t.at.getTime() + H + 1000));
    const [m] = await (await db()).select().from(postMetrics).where(eq(postMetrics.draftId, t.id));
    expect(m.note).toMatch(/no credits left.*nothing was read/);
    expect((await accountHealth(await db(), u.id, ports()))[0].notice).toMatch(/no credits left/);
  });
});

describe("out of credits", () => {
  it("X's 402 posts nothing, leaves the draft unpublished and not retried, and account health says why", async () => {
    const { u } = await publisher();
    fake().xCredits = 0;
    const tag = randomUUID().slice(0, 8);
    const d = await create(u, { body: `No credits ${tag}` });
    const res = await approved(u, "publish_now", { type: "tweet", id: d.id });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toMatch(/no credits/i);
    const r = await row("tweet", d.id);
    expect(r.status).toBe("failed");
    expect(r.nextAttemptAt).toBeNull();
    expect(fake().created.x.filter((t) => t.text.includes(tag))).toHaveLength(0);
    const [health] = await accountHealth(await db(), u.id, ports());
    expect(health.notice).toMatch(/no credits left.*console\.x\.com/);
    // The owner is told, as of any failed post.
    const mails: Mail[] = [];
    await notifyOwners(await db(), { ...ports(), mail: { configured: () => true, send: async (m: Mail) => void mails.push(m) } });
    expect(mails.filter((m) => m.to === u.email && m.text.includes("no credits left"))).toHaveLength(1);
    // Once credits are bought, the owner publishes it again; the notice goes with the next post.
    fake().xCredits = null;
    expectOk(await approved(u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
    expect((await accountHealth(await db(), u.id, ports()))[0].notice).toBeNull();
  });
});

describe("X's reply rule for self-serve apps (strict fake)", () => {
  it("a thread stops after part 1 with X's reason, and publishing again never re-posts part 1", async () => {
    const { u } = await publisher();
    fake().xSelfServe = true;
    const tag = randomUUID().slice(0, 8);
    const d = await create(u, { body: `Thread ${tag} 1/2`, thread: [`Part two ${tag}`] });
    const res = await approved(u, "publish_now", { type: "tweet", id: d.id });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toMatch(/part 2 failed.*summoned/);
    expect(
      fake()
        .created.x.filter((t) => t.text.includes(tag))
        .map((t) => t.text),
    ).toEqual([`Thread ${tag} 1/2`]);
    const again = await approved(u, "publish_now", { type: "tweet", id: d.id });
    expectError(again, 422, "action_failed");
    expect(fake().created.x.filter((t) => t.text === `Thread ${tag} 1/2`)).toHaveLength(1);
  });

  it("a first comment fails with X's reason while the post stays published", async () => {
    const { u } = await publisher();
    fake().xSelfServe = true;
    const tag = randomUUID().slice(0, 8);
    const d = await create(u, { body: `Post ${tag}`, first_comment: `Comment ${tag}` });
    expectOk(await approved(u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
    const r = await row("tweet", d.id);
    expect(r.status).toBe("published");
    expect(r.firstCommentStatus).toBe("failed");
    expect(r.firstCommentReason).toMatch(/summoned/);
  });
});

describe("X_REPLIES", () => {
  it("refused: a thread or a first comment to X is refused before anything is sent; a single tweet goes", async () => {
    const restore = reconfigure({ X_REPLIES: "refused" });
    try {
      const { u } = await publisher();
      const tag = randomUUID().slice(0, 8);
      const thread = await create(u, { body: `Thread ${tag}`, thread: [`Two ${tag}`] });
      const res = await call("publish_now", { type: "tweet", id: thread.id }, { token: u.token });
      expectError(res, 422, "action_failed");
      expect(res.body.error.message).toMatch(/X refuses replies .* this tweet has a thread/);
      const commented = await create(u, { body: `Commented ${tag}`, first_comment: "More" });
      expect(
        (await call("schedule_content", { type: "tweet", id: commented.id, scheduled_for: inSeconds(600).toISOString() }, { token: u.token })).body.error
          .message,
      ).toMatch(/a first comment/);
      expect(sentToX(tag)).toHaveLength(0);
      expectOk(await approved(u, "publish_now", { type: "tweet", id: (await create(u, { body: `Alone ${tag}` })).id }), publishNowOp.output);
    } finally {
      restore();
    }
  });
});

describe("cashtags", () => {
  it("two cashtags are refused on the draft, not at X", async () => {
    const u = (await publisher()).u;
    const tag = randomUUID().slice(0, 8);
    const res = await call("create_draft", { type: "tweet", body: `Watch $AAPL and $TSLA ${tag}` }, { token: u.token });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details).toEqual([{ path: "body", message: expect.stringMatching(/at most 1 cashtag.*\$AAPL, \$TSLA/) }]);
    expect(await create(u, { body: `Watch $AAPL ${tag}` })).toMatchObject({ id: expect.any(String) });
    expect(sentToX(tag)).toHaveLength(0);
  });
});
