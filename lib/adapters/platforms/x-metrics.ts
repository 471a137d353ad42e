import type { Engagement, MetricsRequest } from "@/lib/domain/networks/platform";
import { ENDPOINTS } from "@/lib/domain/networks/scopes";
import { send } from "./http";
import { count, noteAll, readRefusal, reading, readScopeProblem, type Reads } from "./metrics";
import type { Account, authorized } from "./tokens";
import type { Db } from "@/lib/adapters/db";
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
