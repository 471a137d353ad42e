import type { Engagement, MetricsRequest } from "@/lib/domain/networks/platform";
import { ENDPOINTS } from "@/lib/domain/networks/scopes";
import { count, noteAll, readRefusal, reading, readScopeProblem, type Reads } from "./metrics";
import type { LinkedInRest } from "./linkedin-media";

const NET = "LinkedIn";
/** The metrics read for a member's post, one request each (Member Post Analytics' queryType). */
const MEMBER_METRICS = { impressions: "IMPRESSION", likes: "REACTION", replies: "COMMENT", reposts: "RESHARE" } as const;
/** Page posts named in one statistics request. */
const PAGE_POSTS_PER_READ = 20;

/** A post URN as a Rest.li union member: (share:urn%3Ali%3Ashare%3A1) or (ugcPost:…). */
const entity = (urn: string) => `(${urn.split(":")[2] === "ugcPost" ? "ugcPost" : "share"}:${encodeURIComponent(urn)})`;

/**
 * Engagement of LinkedIn posts. A member's own posts: Member Post Analytics
 * (GET /rest/memberCreatorPostAnalytics?q=entity, r_member_postAnalytics; LinkedIn gives no
 * clicks for them). A page's posts: Organization Share Statistics
 * (GET /rest/organizationalEntityShareStatistics?q=organizationalEntity, rw_organization_admin),
 * lifetime totals with clicks. learn.microsoft.com/linkedin/marketing/community-management.
 */
export function linkedInMetrics(rest: LinkedInRest, scope: string | null, author: string) {
  const page = author.startsWith("urn:li:organization:");

  const memberPost = async (urn: string): Promise<Engagement | string> => {
    const e: Engagement = { impressions: null, likes: null, replies: null, reposts: null, quotes: null, clicks: null };
    for (const [field, queryType] of Object.entries(MEMBER_METRICS) as [keyof typeof MEMBER_METRICS, string][]) {
      const res = await rest(`${ENDPOINTS.linkedin.memberPostAnalytics.path}?q=entity&entity=${entity(urn)}&queryType=${queryType}&aggregation=TOTAL`);
      if (!res.ok) return readRefusal(NET, res);
      const body = ((await res.json().catch(() => null)) ?? {}) as { elements?: { count?: unknown }[] };
      const counts = (body.elements ?? []).map((el) => count(el.count));
      e[field] = counts.length && counts.every((c) => c !== null) ? counts.reduce<number>((a, c) => a + c!, 0) : null;
    }
    return e;
  };

  const pagePosts = async (req: MetricsRequest, out: Reads) => {
    for (let i = 0; i < req.posts.length; i += PAGE_POSTS_PER_READ) {
      const urns = req.posts.slice(i, i + PAGE_POSTS_PER_READ).map((p) => p.postId);
      const list = (kind: string) => urns.filter((u) => (u.split(":")[2] === "ugcPost") === (kind === "ugcPosts")).map(encodeURIComponent);
      const lists = ["shares", "ugcPosts"].map((k) => (list(k).length ? `&${k}=List(${list(k).join(",")})` : "")).join("");
      const res = await rest(
        `${ENDPOINTS.linkedin.pageShareStatistics.path}?q=organizationalEntity&organizationalEntity=${encodeURIComponent(author)}${lists}`,
      );
      if (!res.ok) {
        const note = await readRefusal(NET, res);
        for (const u of urns) out.set(u, { note });
        continue;
      }
      type Stats = { share?: string; ugcPost?: string; totalShareStatistics?: Record<string, unknown> };
      const body = ((await res.json().catch(() => null)) ?? {}) as { elements?: Stats[] };
      for (const el of body.elements ?? []) {
        const urn = el.share ?? el.ugcPost;
        const s = el.totalShareStatistics ?? {};
        if (urn && urns.includes(urn))
          out.set(urn, {
            metrics: {
              impressions: count(s.impressionCount),
              likes: count(s.likeCount),
              replies: count(s.commentCount),
              reposts: count(s.shareCount),
              quotes: null,
              clicks: count(s.clickCount),
            },
          });
      }
      for (const u of urns) if (!out.has(u)) out.set(u, { note: "LinkedIn's statistics did not include this post." });
    }
  };

  return (req: MetricsRequest): Promise<Reads> =>
    reading(NET, req, async () => {
      const problem = readScopeProblem("linkedin", scope, page ? "pages" : "analytics");
      if (problem) return noteAll(req, problem + (page ? "" : " LinkedIn gives it with the Member Post Analytics product (LINKEDIN_ANALYTICS=on)."));
      const out: Reads = new Map();
      if (page) await pagePosts(req, out);
      else
        for (const p of req.posts) {
          const e = await memberPost(p.postId);
          out.set(p.postId, typeof e === "string" ? { note: e } : { metrics: e });
        }
      return out;
    });
}
