import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { metricsCsv } from "@/lib/domain/metrics/csv";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { call, expectOk } from "../helpers/api";
import { connectedOwner, withBluesky, type BlueskyOwner, type PdsProxy } from "../helpers/bluesky";
import { collectAt, metricRows, metricsOf, withNoEarlierReads } from "../helpers/metrics";
import { withDatabase } from "../helpers/db";
import { reconfigure } from "../helpers/env";
import { approved, row } from "../helpers/publishing";

// Engagement of Bluesky posts, against the whole network Bluesky runs (dev-env's TestNetwork:
// PDS, AppView and moderation service, the AppView on the machine's PostgreSQL and Redis):
// posts published by the service, liked, reposted, replied to and quoted by other accounts,
// indexed by the AppView, and read by the metrics collection at its scheduled times.

withDatabase();
const bluesky = withBluesky({}, { appView: true });
const H = 3600_000;

type Owner = BlueskyOwner;
const owner = (name: string) => connectedOwner(bluesky.net, name);

/** A tweet draft for the owner's Bluesky account, published by the service. */
async function published(o: Owner, body = `Shipped it ${randomUUID().slice(0, 8)}`) {
  const d = expectOk(await call("create_draft", { type: "tweet", account_id: o.accountId, body }, { token: o.u.token }), createDraftOp.output) as {
    id: string;
  };
  const out = expectOk(await approved(o.u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output) as { platform_post_id: string };
  const stored = await bluesky.net.records(o.a.did);
  const post = stored.find((r) => r.uri === out.platform_post_id)!;
  return { id: d.id, uri: post.uri, cid: post.cid, at: (await row("tweet", d.id)).publishedAt! };
}

const collect = collectAt;
const rows = metricRows;

describe("Bluesky post metrics, read from the AppView", () => {
  withNoEarlierReads();
  let restore = () => {};
  let proxy: PdsProxy | undefined;
  /** The AppView's calls through a proxy that counts them (and can answer in its place). */
  const throughProxy = async () => {
    proxy = await bluesky.net.proxy(bluesky.net.appView!.url);
    restore = reconfigure({ BLUESKY_APPVIEW_URL: proxy.url });
    return proxy;
  };
  afterEach(async () => {
    restore();
    restore = () => {};
    await proxy?.close();
    proxy = undefined;
  });

  it("counts the likes, reposts, replies and quotes other accounts gave a published post, at the scheduled reads", async () => {
    const o = await owner("alice");
    const p = await published(o);
    const [bob, carol, dan] = [await bluesky.net.account("bob"), await bluesky.net.account("carol"), await bluesky.net.account("dan")];
    const subject = { uri: p.uri, cid: p.cid };
    const likes = [];
    for (const fan of [bob, carol, dan]) likes.push(await fan.agent.like(p.uri, p.cid));
    await bob.agent.repost(p.uri, p.cid);
    await carol.agent.repost(p.uri, p.cid);
    await dan.agent.post({ text: "Congratulations!", reply: { root: subject, parent: subject } });
    await carol.agent.post({ text: "Worth a read", embed: { $type: "app.bsky.embed.record", record: subject } });
    await bluesky.net.appView!.indexed();

    await collect(new Date(p.at.getTime() + H + 1000));
    expect(await rows(o.u, p.id)).toMatchObject([{ window: "1h", likes: 3, reposts: 2, replies: 1, quotes: 1, impressions: null, clicks: null, note: null }]);

    // More engagement by the next window; one like taken back.
    await bob.agent.post({ text: "Agreed", reply: { root: subject, parent: subject } });
    await bob.agent.deleteLike(likes[0].uri);
    await bluesky.net.appView!.indexed();
    await collect(new Date(p.at.getTime() + 25 * H));
    const got = await metricsOf(o.u, { type: "tweet", id: p.id });
    expect(got.posts).toEqual([
      expect.objectContaining({
        id: p.id,
        platform: "micro",
        network: "bluesky",
        metrics: { impressions: null, likes: 2, replies: 2, reposts: 2, quotes: 1, clicks: null },
      }),
    ]);
    // The analytics page's CSV names the network, and the numbers Bluesky gives.
    expect(metricsCsv(got.posts).split("\r\n")[1]).toMatch(
      new RegExp(`^tweet,${p.id},[^,]+,Bluesky,https://bsky\\.app/profile/${o.a.did}/post/[^,]+,[^,]+,,2,2,2,1,,`),
    );
    expect(got.summary.best).toEqual([expect.objectContaining({ id: p.id, engagement: 2 + 2 + 2 + 1 })]);
    expect(got.notes).toEqual([]);
  });

  it("asks for 25 posts a request, as the lexicon allows, and reads every one", async () => {
    const o = await owner("busy");
    const posts: Awaited<ReturnType<typeof published>>[] = [];
    for (let i = 0; i < 26; i++) posts.push(await published(o, `Post number ${i} ${randomUUID().slice(0, 8)}`));
    const fan = await bluesky.net.account("fan");
    await fan.agent.like(posts[25].uri, posts[25].cid);
    await bluesky.net.appView!.indexed();
    const seen = await throughProxy();

    await collect(new Date(posts[25].at.getTime() + H + 1000));
    const asked = seen.urls.filter((u) => u.startsWith("/xrpc/app.bsky.feed.getPosts?")).map((u) => new URLSearchParams(u.split("?")[1]).getAll("uris"));
    expect(asked.map((uris) => uris.length)).toEqual([25, 1]);
    expect(asked.flat().sort()).toEqual(posts.map((p) => p.uri).sort());
    const all = await metricsOf(o.u, { type: "tweet" });
    expect(all.posts).toHaveLength(26);
    expect(all.posts.every((p) => p.metrics !== null)).toBe(true);
    expect(all.posts.find((p) => p.id === posts[25].id)?.metrics).toMatchObject({ likes: 1 });
  });

  it("a post deleted on Bluesky is noted as deleted or hidden, without numbers", async () => {
    const o = await owner("eve");
    const kept = await published(o);
    const gone = await published(o);
    await o.a.agent.deletePost(gone.uri);
    await bluesky.net.appView!.indexed();
    await collect(new Date(gone.at.getTime() + H + 1000));
    expect(await rows(o.u, kept.id)).toMatchObject([{ likes: 0, note: null }]);
    expect(await rows(o.u, gone.id)).toMatchObject([{ likes: null, note: expect.stringMatching(/did not include this post: it was deleted, or is hidden/) }]);
    expect((await metricsOf(o.u, { type: "tweet", id: gone.id })).notes).toEqual([expect.stringContaining("deleted, or is hidden")]);
  });

  it("a 429 or a server error is that window's note, not retried; the next window reads again", async () => {
    const o = await owner("frank");
    const p = await published(o);
    await bluesky.net.appView!.indexed();
    const appView = await throughProxy();
    appView.answer(
      "app.bsky.feed.getPosts",
      429,
      { error: "RateLimitExceeded", message: "Rate Limit Exceeded" },
      {
        "ratelimit-limit": "3000",
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 300),
      },
    );
    await collect(new Date(p.at.getTime() + H + 1000));
    await collect(new Date(p.at.getTime() + H + 5000));
    expect(appView.calls.filter((c) => c === "app.bsky.feed.getPosts")).toHaveLength(1);
    expect(await rows(o.u, p.id)).toMatchObject([{ window: "1h", likes: null, note: expect.stringContaining("Bluesky limited the reads (429") }]);

    appView.answer("app.bsky.feed.getPosts", 502, { error: "UpstreamFailure", message: "Upstream Failure" });
    await collect(new Date(p.at.getTime() + 25 * H));
    expect((await rows(o.u, p.id)).at(-1)).toMatchObject({ window: "24h", note: expect.stringContaining("Bluesky refused the read (502") });

    await collect(new Date(p.at.getTime() + 7 * 24 * H + 1000));
    expect((await rows(o.u, p.id)).at(-1)).toMatchObject({ window: "7d", likes: 0, reposts: 0, replies: 0, quotes: 0, note: null });
    expect(appView.calls.filter((c) => c === "app.bsky.feed.getPosts")).toHaveLength(3);
  });
});
