import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { signInScopes } from "@/lib/domain/networks/scopes";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { mcpClient } from "../helpers/mcp";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, draft, row } from "../helpers/publishing";
import { collectAt, metricRows, metricsOf, withNoEarlierReads } from "../helpers/metrics";

// Engagement of published posts, read from the contract-holding fakes through the real
// adapters at the times of the schedule (METRICS_AFTER's default: 1h, 24h, 7d, then weekly
// for a month), once per post and window; refusals and the read budget recorded, never
// retried in a loop; get_post_metrics over REST and MCP, the caller's posts only.

withDatabase();

const READS_PER_MONTH = 4;
const platforms = withFakePlatforms({ METRICS_X_READS_PER_MONTH: String(READS_PER_MONTH) });
const fake = () => platforms.fake;
const H = 3600_000;
const D = 24 * H;

const collect = collectAt;

async function published(u: TestUser, type: "post" | "tweet", body = `How it went ${randomUUID()}`) {
  const d = await draft(u, type, body);
  const ok = expectOk(await approved(u, "publish_now", { type, id: d.id }), publishNowOp.output) as { platform_post_id: string };
  const { publishedAt } = await row(type, d.id);
  return { id: d.id, postId: ok.platform_post_id, at: publishedAt! };
}

const rows = metricRows;
const readsOf = (postId: string) => fake().reads.filter((r) => r.ids.includes(postId)).length;

describe("post metrics", () => {
  withNoEarlierReads();

  it("X: read at 1 hour, 24 hours and then weekly, once per window, and shown by get_post_metrics", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const t = await published(u, "tweet");
    fake().engagement.set(t.postId, { impressions: 1200, likes: 40, replies: 6, reposts: 9, clicks: 14 });

    // Not yet an hour: nothing is read.
    await collect(new Date(t.at.getTime() + H - 1000));
    expect(readsOf(t.postId)).toBe(0);
    expect((await metricsOf(u, { type: "tweet", id: t.id })).notes).toEqual([expect.stringMatching(/^tweet .*: Not read yet/)]);

    await collect(new Date(t.at.getTime() + H + 1000));
    await collect(new Date(t.at.getTime() + H + 2000));
    expect(readsOf(t.postId)).toBe(1);
    // Recent tweets: impressions and link clicks from non_public_metrics.
    expect(fake().reads.at(-1)).toEqual({ route: "x", ids: [t.postId] });
    expect(await rows(u, t.id)).toMatchObject([{ window: "1h", impressions: 1200, likes: 40, replies: 6, reposts: 9, clicks: 14, note: null }]);

    fake().engagement.set(t.postId, { impressions: 5000, likes: 90, replies: 11, reposts: 20, quotes: 3, clicks: 31 });
    await collect(new Date(t.at.getTime() + 25 * H));
    expect(readsOf(t.postId)).toBe(2);
    // Down for weeks: the windows missed are one read (the latest due), then the schedule ends.
    await collect(new Date(t.at.getTime() + 40 * D));
    await collect(new Date(t.at.getTime() + 90 * D));
    expect(readsOf(t.postId)).toBe(3);
    expect((await rows(u, t.id)).map((r) => r.window)).toEqual(["1h", "24h", "35d"]);

    const one = await metricsOf(u, { type: "tweet", id: t.id });
    expect(one.posts).toEqual([
      expect.objectContaining({
        type: "tweet",
        id: t.id,
        platform: "micro",
        network: "x",
        url: `https://x.com/writer/status/${t.postId}`,
        // Past 30 days X gives no link clicks (non_public_metrics), so the last read has none.
        metrics: { impressions: 5000, likes: 90, replies: 11, reposts: 20, quotes: 3, clicks: null },
      }),
    ]);
    expect(one.summary.best).toEqual([expect.objectContaining({ id: t.id, engagement: 90 + 11 + 20 + 3, impressions: 5000 })]);
    expect(one.notes).toEqual([]);
  });

  it("another owner's item is refused exactly like a missing one, and a range lists only the caller's posts", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const t = await published(u, "tweet");
    const other = await makeUser();
    const theirs = await call("get_post_metrics", { type: "tweet", id: t.id }, { token: other.token });
    const missing = await call("get_post_metrics", { type: "tweet", id: randomUUID() }, { token: other.token });
    expectError(theirs, 422, "action_failed");
    expect(theirs.body).toEqual(missing.body);
    expect((await metricsOf(other, {})).posts).toEqual([]);
    expect((await metricsOf(u, {})).posts.map((p) => p.id)).toEqual([t.id]);
    expectError(await call("get_post_metrics", { id: t.id }, { token: u.token }), 400, "invalid_request");
  });

  it("a 429 is recorded for that window and not retried; the next window reads again", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const t = await published(u, "tweet");
    fake().misbehave("x-read", "429");
    await collect(new Date(t.at.getTime() + H + 1000));
    await collect(new Date(t.at.getTime() + H + 5000));
    expect(readsOf(t.postId)).toBe(0); // refused before the fake counted it, and not asked again
    expect(await rows(u, t.id)).toMatchObject([{ window: "1h", impressions: null, note: expect.stringContaining("429") }]);
    expect((await metricsOf(u, { type: "tweet", id: t.id })).notes).toEqual([expect.stringContaining("429")]);
    await collect(new Date(t.at.getTime() + 25 * H));
    expect(readsOf(t.postId)).toBe(1);
    expect((await metricsOf(u, { type: "tweet", id: t.id })).posts[0].metrics).not.toBeNull();
  });

  it("the monthly read budget caps what is read from X, and says so", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const tweets = [];
    for (let i = 0; i < READS_PER_MONTH + 2; i++) tweets.push(await published(u, "tweet"));
    const before = fake().reads.length;
    await collect(new Date(Math.max(...tweets.map((t) => t.at.getTime())) + H + 1000));
    const asked = fake()
      .reads.slice(before)
      .flatMap((r) => r.ids);
    expect(asked).toHaveLength(READS_PER_MONTH);
    // One request for all of them (X takes up to 100 ids).
    expect(fake().reads.length - before).toBe(1);
    const all = await metricsOf(u, {});
    expect(all.read_budget.x).toMatchObject({ used: READS_PER_MONTH, limit: READS_PER_MONTH });
    expect(all.posts.filter((p) => p.metrics)).toHaveLength(READS_PER_MONTH);
    expect(all.notes.filter((n) => n.includes("budget of reads from X is used up"))).toHaveLength(2);
  });

  it("LinkedIn: without Member Post Analytics the owner is told why and nothing is called; with it, the member's numbers", async () => {
    const without = await makeUser({ publishing: true });
    await platforms.connect(without, "linkedin");
    const p1 = await published(without, "post");
    await collect(new Date(p1.at.getTime() + H + 1000));
    expect(readsOf(p1.postId)).toBe(0);
    expect((await metricsOf(without, { type: "post", id: p1.id })).notes).toEqual([expect.stringContaining("r_member_postAnalytics")]);

    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "linkedin", { scopes: signInScopes("linkedin", { analytics: true }) });
    const p = await published(u, "post");
    fake().engagement.set(p.postId, { impressions: 800, likes: 25, replies: 4, reposts: 2, clicks: 9 });
    await collect(new Date(p.at.getTime() + H + 1000));
    // One request per metric: impressions, reactions, comments, reshares.
    expect(readsOf(p.postId)).toBe(4);
    const got = await metricsOf(u, { type: "post", id: p.id });
    // LinkedIn gives no clicks for a member's post.
    expect(got.posts[0]).toMatchObject({
      platform: "pronet",
      network: "linkedin",
      metrics: { impressions: 800, likes: 25, replies: 4, reposts: 2, quotes: null, clicks: null },
    });
  });

  it("over MCP as over REST", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const t = await published(u, "tweet");
    fake().engagement.set(t.postId, { impressions: 10, likes: 1, replies: 0, reposts: 0, clicks: 0 });
    await collect(new Date(t.at.getTime() + H + 1000));
    const client = await mcpClient(u.token);
    const r = (await client.callTool({ name: "get_post_metrics", arguments: { type: "tweet", id: t.id } })) as { structuredContent: Record<string, any> };
    expect(r.structuredContent.posts[0]).toMatchObject({ id: t.id, metrics: { impressions: 10, likes: 1 } });
    const tool = (await client.listTools()).tools.find((x) => x.name === "get_post_metrics");
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("deleting a published post deletes its engagement too", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter");
    const t = await published(u, "tweet");
    await collect(new Date(t.at.getTime() + H + 1000));
    expect(await rows(u, t.id)).toHaveLength(1);
    expectOk(await approved(u, "delete_draft", { type: "tweet", id: t.id }), z.object({ deleted: z.literal(true) }));
    expect(await rows(u, t.id)).toEqual([]);
  });
});
