import { config } from "@/lib/core/config";
import type { MetricsRequest } from "@/lib/domain/networks/platform";
import { count, noteAll, readRefusal, reading, type Reads } from "../metrics";
import { NET, xrpc } from "./xrpc";

// Engagement of Bluesky posts, from the AppView (BLUESKY_APPVIEW_URL): the PDS holds the
// account's records, the AppView counts what others did with them (app.bsky.feed.getPosts,
// public: no session, nothing an account's own). docs/platforms.md, "Engagement".

/** app.bsky.feed.getPosts takes up to 25 `uris` (its lexicon: maxLength 25). */
export const BLUESKY_URIS_PER_READ = 25;

/** A post's at:// URI as publishing stores it (the lexicon's `at-uri` format for a post record). */
const POST_URI = /^at:\/\/did:[a-z]+:[a-zA-Z0-9._:%-]+\/app\.bsky\.feed\.post\/[a-zA-Z0-9._:~-]{1,512}$/;

/** app.bsky.feed.defs#postView, the parts read: its URI and its counts (each optional). */
type PostView = { uri?: unknown; likeCount?: unknown; repostCount?: unknown; replyCount?: unknown; quoteCount?: unknown };

const base = () => config().BLUESKY_APPVIEW_URL.replace(/\/+$/, "");

/**
 * Likes, reposts, replies and quotes of the account's posts, 25 a request. A post the answer
 * leaves out is deleted or hidden (by its author, or by moderation): its note says so, as X's
 * and LinkedIn's do of a post they no longer give. The AppView gives no impressions or clicks.
 */
export function blueskyMetrics() {
  return (req: MetricsRequest): Promise<Reads> =>
    reading(NET, req, async () => {
      const out: Reads = new Map();
      const posts = req.posts.filter((p) => POST_URI.test(p.postId));
      for (const p of req.posts)
        if (!POST_URI.test(p.postId)) out.set(p.postId, { note: `This is not the address of a ${NET} post (${p.postId.slice(0, 100)}).` });
      for (let i = 0; i < posts.length; i += BLUESKY_URIS_PER_READ) {
        const chunk = { ...req, posts: posts.slice(i, i + BLUESKY_URIS_PER_READ) };
        const res = await xrpc(base(), "app.bsky.feed.getPosts", { params: { uris: chunk.posts.map((p) => p.postId) } });
        if (!res.ok) {
          for (const [id, read] of noteAll(chunk, await readRefusal(NET, res))) out.set(id, read);
          continue;
        }
        const body = ((await res.json().catch(() => null)) ?? {}) as { posts?: PostView[] };
        const wanted = new Set(chunk.posts.map((p) => p.postId));
        for (const v of Array.isArray(body.posts) ? body.posts : [])
          if (typeof v?.uri === "string" && wanted.has(v.uri))
            out.set(v.uri, {
              metrics: {
                impressions: null,
                likes: count(v.likeCount),
                replies: count(v.replyCount),
                reposts: count(v.repostCount),
                quotes: count(v.quoteCount),
                clicks: null,
              },
            });
        for (const p of chunk.posts)
          if (!out.has(p.postId))
            out.set(p.postId, { note: `${NET}'s answer did not include this post: it was deleted, or is hidden (by its author, or by moderation).` });
      }
      return out;
    });
}
