import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { draftHistory } from "@/lib/domain/drafts/history";
import { signInScopes } from "@/lib/domain/networks/scopes";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { previewPublishOp } from "@/lib/operations/publishing/preview-publish";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { media, postDrafts, tweetDrafts, xSpend } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { mcpClient } from "../helpers/mcp";
import { png } from "../helpers/media";
import { asOwner } from "../helpers/owner";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { configured } from "../helpers/env";
import { approved, row } from "../helpers/publishing";

// preview_publish: what publishing a draft would do, through the real adapters' configuration
// against the fakes of X and LinkedIn, and that asking changes nothing anywhere.

withDatabase();

const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const fake = () => platforms.fake;

type Preview = ReturnType<typeof previewPublishOp.output.parse>;

async function publisher(opts: Parameters<typeof platforms.connect>[2] = {}) {
  const u = await makeUser({ publishing: true });
  await platforms.connect(u, "twitter", opts);
  const profile = (await call("get_profile_context", {}, { token: u.token })).body as { accounts: { account_id: string; platform: string }[] };
  return { u, account: profile.accounts.find((a) => a.platform === "micro")!.account_id };
}

const create = async (u: TestUser, args: Record<string, unknown>) =>
  expectOk(await call("create_draft", { type: "tweet", ...args }, { token: u.token }), createDraftOp.output) as { id: string };
const preview = async (u: TestUser, id: string, type: "tweet" | "post" = "tweet"): Promise<Preview> =>
  expectOk(await call("preview_publish", { type, id }, { token: u.token }), previewPublishOp.output) as Preview;
const setCap = (u: TestUser, account: string, dollars: number | null) =>
  asOwner(u, "change_account", { account_id: account, action: "set_monthly_cap", monthly_cap_usd: dollars });
/** Text the API no longer takes (written before the rule, or for another network): stored as it is. */
const storeBody = async (id: string, body: string) => void (await (await db()).update(tweetDrafts).set({ body }).where(eq(tweetDrafts.id, id)));
const codes = (f: { code: string; part: number | null }[]) => f.map((x) => [x.code, x.part]);

describe("on X", () => {
  it("says where it goes, each part as sent, and the price: $0.20 with a URL, $0.015 without, as the approval says", async () => {
    const { u, account } = await publisher();
    const link = await create(u, { body: `Read this https://example.com/${randomUUID()}` });
    const p = await preview(u, link.id);
    expect(p).toMatchObject({
      type: "tweet",
      id: link.id,
      status: "draft",
      publishable: true,
      account: { account_id: account, handle: "writer", network: "x", network_name: "X", sandbox: false },
      problems: [],
      warnings: [],
      link_card: null,
      cost: { estimate_usd: 0.2, text: "about $0.20 on X: it contains a link", posts: [{ part: 1, usd: 0.2, has_link: true }] },
      spend: { month: new Date().toISOString().slice(0, 7), spent_usd: 0, cap_usd: null, left_usd: null, after_usd: 0.2 },
    });
    // A link counts 23 as X weighs it.
    expect(p.parts).toEqual([
      {
        index: 1,
        kind: "post",
        text: expect.stringMatching(/^Read this https/),
        length: { count: 33, max: 280, unit: "characters as X counts them" },
        media: [],
        already_posted: false,
      },
    ]);
    // The approval request says the same price.
    const asked = await call("publish_now", { type: "tweet", id: link.id }, { token: u.token });
    expect(asked.body.error.message).toContain(`It costs ${p.cost!.text}.`);

    const plain = await preview(u, (await create(u, { body: `Just words ${randomUUID()}` })).id);
    expect(plain.cost).toEqual({ estimate_usd: 0.015, text: "about $0.015 on X", posts: [{ part: 1, usd: 0.015, has_link: false }] });
  });

  it("a cap below the next post is a problem, with the month's spend against it", async () => {
    const { u, account } = await publisher();
    await setCap(u, account, 0.1);
    await (await db()).insert(xSpend).values({ userId: u.id, accountId: account, kind: "post", micros: 15_000 });
    const p = await preview(u, (await create(u, { body: `Costly https://example.com/${randomUUID()}` })).id);
    expect(p.publishable).toBe(false);
    expect(codes(p.problems)).toEqual([["monthly_cap", null]]);
    expect(p.problems[0].message).toMatch(/would pass the monthly cap of \$0\.10 set for @writer: about \$0\.015 is spent this month/);
    expect(p.spend).toEqual({ month: expect.any(String), spent_usd: 0.015, cap_usd: 0.1, left_usd: 0.085, after_usd: 0.215 });
    // Without the link it fits.
    expect((await preview(u, (await create(u, { body: `Cheap ${randomUUID()}` })).id)).publishable).toBe(true);
  });

  it("two cashtags and an over-length tweet are problems of their part", async () => {
    const { u } = await publisher();
    const d = await create(u, { body: `Watch ${randomUUID()}`, thread: ["Part two"] });
    await storeBody(d.id, "Watch $AAPL and $TSLA today");
    const cashtags = await preview(u, d.id);
    expect(codes(cashtags.problems)).toEqual([["too_many_cashtags", 1]]);
    expect(cashtags.problems[0].message).toMatch(/at most 1 cashtag.*\$AAPL, \$TSLA/);

    await storeBody(d.id, "é".repeat(281));
    const long = await preview(u, d.id);
    expect(codes(long.problems)).toEqual([["too_long", 1]]);
    expect(long.problems[0].message).toMatch(/at most 280 characters as X counts them.*this one is 281/);
    expect(long.parts[0].length).toEqual({ count: 281, max: 280, unit: "characters as X counts them" });
    expect(long.publishable).toBe(false);
  });

  it("X_REPLIES=refused: the parts after the first and the first comment are problems; unknown: warnings", async () => {
    const { u } = await publisher();
    const d = await create(u, { body: `Thread ${randomUUID()}`, thread: ["Two", "Three"], first_comment: "And a comment" });
    const refused = await configured({ X_REPLIES: "refused" }, () => preview(u, d.id));
    expect(codes(refused.problems)).toEqual([
      ["reply_rule", 2],
      ["reply_rule", 3],
      ["reply_rule", 4],
    ]);
    expect(refused.problems[0].message).toMatch(/X refuses replies .* this tweet has a thread and a first comment/);
    expect(refused.parts.map((p) => [p.index, p.kind])).toEqual([
      [1, "post"],
      [2, "thread_part"],
      [3, "thread_part"],
      [4, "first_comment"],
    ]);
    expect(refused.cost).toMatchObject({ estimate_usd: 0.06, text: "about $0.06 on X for 4 posts (a thread of 3 and a first comment)" });

    const unknown = await preview(u, d.id);
    expect(unknown.problems).toEqual([]);
    expect(codes(unknown.warnings)).toEqual([
      ["reply_rule", 2],
      ["reply_rule", 3],
      ["reply_rule", 4],
    ]);
    expect(unknown.warnings[0].message).toMatch(/^X may refuse the thread's further parts and the first comment/);
    expect((await configured({ X_REPLIES: "allowed" }, () => preview(u, d.id))).warnings).toEqual([]);
  });

  it("the connection: missing permissions, an expired one, none at all", async () => {
    const noWrite = await publisher({ scopes: signInScopes("x").filter((s) => s !== "tweet.write") });
    const a = await preview(noWrite.u, (await create(noWrite.u, { body: `Hello ${randomUUID()}` })).id);
    expect(codes(a.problems)).toEqual([["missing_scopes", null]]);
    expect(a.problems[0].message).toMatch(/without the permission to post \(tweet\.write\)/);

    const expired = await publisher({ expired: true, refresh: null });
    const b = await preview(expired.u, (await create(expired.u, { body: `Hello ${randomUUID()}` })).id);
    expect(codes(b.problems)).toEqual([["reconnect_needed", null]]);
    expect(b.problems[0].message).toMatch(/The X connection needs renewing/);

    const none = await makeUser({ publishing: true });
    const c = await preview(none, (await create(none, { body: `Hello ${randomUUID()}` })).id);
    expect(c.account).toBeNull();
    expect(codes(c.problems)).toEqual([["no_account", null]]);
    // What it would cost once an X account is connected; no account, no month of spend.
    expect([c.cost?.estimate_usd, c.spend]).toEqual([0.015, null]);
  });

  it("media as sent, with their alt texts; a medium deleted since is a problem", async () => {
    const { u } = await publisher();
    const up = await call(
      "upload_media",
      { data: (await png()).toString("base64"), content_type: "image/png", filename: "chart.png", alt_text: "A rising chart" },
      { token: u.token },
    );
    const url = up.body.url as string;
    const d = await create(u, { body: `Look ${randomUUID()}`, thread: [{ text: "Two", image_urls: [url] }] });
    const p = await preview(u, d.id);
    expect(p.parts[1].media).toEqual([{ url, kind: "image", alt_text: "A rising chart", title: null, found: true }]);
    expect(p.problems).toEqual([]);
    await (await db()).delete(media).where(eq(media.id, up.body.media_id));
    const gone = await preview(u, d.id);
    expect(codes(gone.problems)).toEqual([["media_missing", 2]]);
    expect(gone.parts[1].media[0]).toMatchObject({ url, alt_text: null, found: false });
  });

  it("X's 24-hour window, once X has stated it", async () => {
    const { u } = await publisher();
    expect((await preview(u, (await create(u, { body: `First ${randomUUID()}` })).id)).rate_limits).toEqual([]);
    fake().xDailyRemaining = 2;
    try {
      expectOk(await approved(u, "publish_now", { type: "tweet", id: (await create(u, { body: `Out ${randomUUID()}` })).id }), publishNowOp.output);
      const p = await preview(u, (await create(u, { body: `Next ${randomUUID()}`, thread: ["Two"] })).id);
      expect(p.rate_limits[0]).toEqual({ window: "posts_24h", limit: expect.any(Number), remaining: 1, resets_at: expect.any(String) });
      expect(codes(p.warnings)).toContainEqual(["daily_limit", null]);
    } finally {
      fake().xDailyRemaining = 100_000;
    }
  });

  it("X's 15-minute window on creating posts, beside the 24-hour one", async () => {
    const { u } = await publisher();
    fake().xPostsPer15Min = 3;
    try {
      for (const n of [1, 2])
        expectOk(await approved(u, "publish_now", { type: "tweet", id: (await create(u, { body: `Out ${n} ${randomUUID()}` })).id }), publishNowOp.output);
      const p = await preview(u, (await create(u, { body: `Next ${randomUUID()}`, thread: ["Two"] })).id);
      expect(p.rate_limits).toEqual([
        { window: "posts_24h", limit: expect.any(Number), remaining: expect.any(Number), resets_at: expect.any(String) },
        { window: "posts_15m", limit: 3, remaining: 1, resets_at: expect.any(String) },
      ]);
      // Fifteen minutes after the first of the two posts.
      const reset = Date.parse(p.rate_limits[1].resets_at) - Date.now();
      expect(reset).toBeGreaterThan(14 * 60_000);
      expect(reset).toBeLessThanOrEqual(15 * 60_000 + 1000);
      expect(codes(p.warnings)).toContainEqual(["rate_limit", null]);
      expect(codes(p.warnings)).not.toContainEqual(["daily_limit", null]);
    } finally {
      fake().xPostsPer15Min = 100;
    }
  });
});

describe("on LinkedIn", () => {
  it("a post carries its stored link card and no price", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "linkedin");
    const link = `https://example.com/${randomUUID()}`;
    const d = expectOk(await call("create_draft", { type: "post", body: `Worth a read: ${link}` }, { token: u.token }), createDraftOp.output) as { id: string };
    const card = { source: link, title: "A page", description: "What it says", image: null };
    await (await db()).update(postDrafts).set({ linkCard: card }).where(eq(postDrafts.id, d.id));
    const p = await preview(u, d.id, "post");
    expect(p).toMatchObject({ publishable: true, account: { network: "linkedin", sandbox: false }, link_card: card, cost: null, spend: null, problems: [] });
    expect(p.parts[0].length).toMatchObject({ max: 3000, unit: "characters" });
  });
});

describe("only the caller's, and nothing changes", () => {
  it("another user's draft answers exactly like a missing one", async () => {
    const { u } = await publisher();
    const other = await makeUser({ publishing: true });
    const d = await create(u, { body: `Mine ${randomUUID()}` });
    const foreign = await call("preview_publish", { type: "tweet", id: d.id }, { token: other.token });
    const missing = await call("preview_publish", { type: "tweet", id: randomUUID() }, { token: other.token });
    expectError(foreign, 422, "action_failed");
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.error.message).toBe("No tweet draft with that id exists in your account.");
  });

  it("sends nothing to the network, records no spend, leaves the draft and its history as they were (REST and MCP)", async () => {
    const { u, account } = await publisher();
    await setCap(u, account, 5);
    const d = await create(u, { body: `Quiet https://example.com/${randomUUID()}`, thread: ["Two"], first_comment: "Three" });
    const before = { draft: await row("tweet", d.id), history: await draftHistory(await db(), u.id, "tweet", d.id) };
    const requests = fake().requests.length;
    const rest = await preview(u, d.id);
    const client = await mcpClient(u.token);
    const result = (await client.callTool({ name: "preview_publish", arguments: { type: "tweet", id: d.id } })) as unknown as {
      structuredContent: Preview;
      isError?: boolean;
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest);
    expect(rest.cost?.estimate_usd).toBe(0.23);
    expect(fake().requests.length).toBe(requests);
    expect(await (await db()).select().from(xSpend).where(eq(xSpend.accountId, account))).toEqual([]);
    expect(await row("tweet", d.id)).toEqual(before.draft);
    expect(await draftHistory(await db(), u.id, "tweet", d.id)).toEqual(before.history);
  });
});
