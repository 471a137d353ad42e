import type { Engagement, MetricsRequest } from "@/lib/domain/networks/platform";
import { ENDPOINTS } from "@/lib/domain/networks/scopes";
import { send } from "./http";
import { count, noteAll, readRefusal, reading, readScopeProblem, type Reads } from "./metrics";
import type { Account, authorized } from "./tokens";
import type { Db } from "@/lib/adapters/db";
import { config } from "@/lib/core/config";
import { outOfCredits } from "./x-credits";

const NET = "X";
/** GET /2/tweets takes up to 100 ids (X's OpenAPI document: `ids`, maxItems 100). */
export const X_IDS_PER_READ = 100;
/** X gives non_public_metrics (impressions, link clicks) only for tweets of the last 30 days. */
const NON_PUBLIC_DAYS = 29;

type XPost = { id?: string; public_metrics?: Record<string, unknown>; non_public_metrics?: Record<string, unknown> };
type XAnswer = { data?: XPost[]; errors?: { resource_id?: string; value?: string; detail?: string; title?: string }[] };

function engagement(p: XPost): Engagement {
  const pub = p.public_metrics ?? {};
  const own = p.non_public_metrics ?? {};
  return {
    impressions: count(own.impression_count) ?? count(pub.impression_count),
    likes: count(pub.like_count),
    replies: count(pub.reply_count),
    // The document's name (repost_count) and the older one X's guides still show (retweet_count).
    reposts: count(pub.repost_count) ?? count(pub.retweet_count),
    quotes: count(pub.quote_count),
    clicks: count(own.url_link_clicks),
  };
}

/**
 * Engagement of the account's own tweets: GET /2/tweets?ids=… with tweet.fields=public_metrics,
 * and non_public_metrics (impressions, link clicks) when every tweet is recent enough for it.
 * `tweet.fields` is the name X's field guide (docs.x.com, "Fields") and every example use.
 */
export function xMetrics(api: string, acc: Account, auth: ReturnType<typeof authorized>, db: Db) {
  return (req: MetricsRequest): Promise<Reads> =>
    reading(NET, req, async () => {
      const problem = readScopeProblem("x", acc.scope, "metrics");
      if (problem) return noteAll(req, problem);
      const recent = req.posts.every((p) => req.now.getTime() - p.publishedAt.getTime() < NON_PUBLIC_DAYS * 86_400_000);
      if (acc.providerAccountId === config().X_APP_OWNER_ID) return ownedReads(api, acc, auth, db, req, recent);
      const out: Reads = new Map();
      for (let i = 0; i < req.posts.length; i += X_IDS_PER_READ) {
        const chunk = { ...req, posts: req.posts.slice(i, i + X_IDS_PER_READ) };
        const q = new URLSearchParams({
          ids: chunk.posts.map((p) => p.postId).join(","),
          "tweet.fields": recent ? "public_metrics,non_public_metrics" : "public_metrics",
        });
        const res = await auth((token) =>
          send(NET, `${api}${ENDPOINTS.x.readPosts.path}?${q}`, { method: "GET", headers: { authorization: `Bearer ${token}` } }),
        );
        if (!res.ok) {
          // No credits left: account health says so, as after a refused post.
          const why =
            res.status === 402 ? (await outOfCredits(db, acc, res)).message.replace("nothing was posted", "nothing was read") : await readRefusal(NET, res);
          for (const [id, read] of noteAll(chunk, why)) out.set(id, read);
          continue;
        }
        const body = ((await res.json().catch(() => null)) ?? {}) as XAnswer;
        for (const p of body.data ?? []) if (p.id) out.set(p.id, { metrics: engagement(p) });
        for (const e of body.errors ?? []) {
          const id = e.resource_id ?? e.value;
          if (id && !out.has(id)) out.set(id, { note: `X did not give this tweet: ${String(e.detail ?? e.title ?? "no reason").slice(0, 200)}` });
        }
        for (const p of chunk.posts) if (!out.has(p.postId)) out.set(p.postId, { note: "X's answer did not include this tweet." });
      }
      return out;
    });
}

/**
 * The developer app owner's own tweets through an owned read (docs.x.com, pricing: "Owned
 * Reads", $0.001 a post): GET /2/users/{id}/tweets between the oldest and the newest id asked
 * for (since_id, until_id), a page of 100 at a time. X bills every post the timeline returns,
 * those not asked for too: still cheaper unless the owner posts five times as much elsewhere.
 */
async function ownedReads(api: string, acc: Account, auth: ReturnType<typeof authorized>, db: Db, req: MetricsRequest, recent: boolean): Promise<Reads> {
  const ids = req.posts.map((p) => BigInt(p.postId)).sort((a, b) => (a < b ? -1 : 1));
  const out: Reads = new Map();
  const wanted = new Set(req.posts.map((p) => p.postId));
  let next: string | undefined;
  // Pages enough for the posts asked for and as many again in between; then it stops.
  for (let page = 0; page < 2 * Math.ceil(req.posts.length / X_IDS_PER_READ) + 1; page++) {
    const q = new URLSearchParams({
      max_results: "100",
      since_id: String(ids[0] - 1n),
      until_id: String(ids[ids.length - 1] + 1n),
      "tweet.fields": recent ? "public_metrics,non_public_metrics" : "public_metrics",
      ...(next && { pagination_token: next }),
    });
    const res = await auth((token) =>
      send(NET, `${api}/2/users/${encodeURIComponent(acc.providerAccountId)}/tweets?${q}`, { method: "GET", headers: { authorization: `Bearer ${token}` } }),
    );
    if (!res.ok) {
      const why =
        res.status === 402 ? (await outOfCredits(db, acc, res)).message.replace("nothing was posted", "nothing was read") : await readRefusal(NET, res);
      for (const [id, read] of noteAll({ ...req, posts: req.posts.filter((p) => !out.has(p.postId)) }, why)) out.set(id, read);
      return out;
    }
    const body = ((await res.json().catch(() => null)) ?? {}) as XAnswer & { meta?: { next_token?: string } };
    for (const p of body.data ?? []) if (p.id && wanted.has(p.id)) out.set(p.id, { metrics: engagement(p) });
    next = body.meta?.next_token;
    if (!next || out.size === wanted.size) break;
  }
  for (const p of req.posts) if (!out.has(p.postId)) out.set(p.postId, { note: "X's timeline of the account did not include this tweet." });
  return out;
}
