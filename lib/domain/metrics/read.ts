import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { postMetrics } from "@/drizzle/schema";
import { AppError, notFound } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { zonedParts } from "@/lib/core/time";
import { networkOfPost, type NetworkName } from "@/lib/domain/networks";
import { platformOf, type Engagement } from "@/lib/domain/networks/platform";
import type { Ctx } from "../context";
import { draftTable, label, type DraftType } from "../drafts/drafts";
import { xReads } from "./budget";

// What get_post_metrics, the analytics page and an item's page show: each published post's
// latest engagement, a summary (best posts, by pillar, by the hour it went out) and why a
// post has no numbers. Read only; every query is the caller's.

/** Posts one answer lists (the most recently published first). */
export const POSTS_LIMIT = 200;
const BEST = 5;
const DAY_MS = 86_400_000;

export type MetricsQuery = { type?: DraftType; id?: string; from?: Date; to?: Date };

type Row = { type: DraftType; id: string; title: string; pillar: string | null; url: string | null; postId: string | null; publishedAt: Date };

export type PostWithMetrics = {
  type: DraftType;
  id: string;
  title: string;
  platform: "pronet" | "micro";
  /** The network it went to (a micro post: X or Bluesky). */
  network: NetworkName;
  url: string | null;
  published_at: string;
  metrics: Engagement | null;
  collected_at: string | null;
  pillar: string | null;
};

/** Likes, replies, reposts, quotes and clicks together: what the summary ranks posts by. */
export const engagementOf = (m: Engagement) => (m.likes ?? 0) + (m.replies ?? 0) + (m.reposts ?? 0) + (m.quotes ?? 0) + (m.clicks ?? 0);

async function publishedPosts(db: Db, userId: string, q: MetricsQuery): Promise<Row[]> {
  const rows: Row[] = [];
  for (const type of q.type ? [q.type] : (["post", "tweet"] as const)) {
    const t = draftTable(type);
    const found = await db
      .select({ id: t.id, title: t.title, pillar: t.pillar, url: t.platformUrl, postId: t.platformPostId, publishedAt: t.publishedAt })
      .from(t)
      .where(
        and(
          eq(t.userId, userId),
          eq(t.status, "published"),
          q.id ? eq(t.id, q.id) : undefined,
          q.from ? gte(t.publishedAt, q.from) : undefined,
          q.to ? lte(t.publishedAt, q.to) : undefined,
        ),
      )
      .orderBy(desc(t.publishedAt))
      .limit(POSTS_LIMIT + 1);
    for (const r of found) if (r.publishedAt) rows.push({ type, ...r, publishedAt: r.publishedAt });
  }
  return rows.sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime());
}

/**
 * The texts of the owner's best-performing published posts of `type` (most engagement in
 * their latest read, at least one), for the writing model as examples of the voice that
 * worked. Only the owner's own text: a draft marked untrusted_source is never one.
 */
export async function bestPostTexts(db: Db, userId: string, type: DraftType, limit = 3): Promise<string[]> {
  const t = draftTable(type);
  const latest = db
    .selectDistinctOn([postMetrics.draftId], {
      draftId: postMetrics.draftId,
      engagement: sql<number>`coalesce(${postMetrics.likes}, 0) + coalesce(${postMetrics.replies}, 0)
        + coalesce(${postMetrics.reposts}, 0) + coalesce(${postMetrics.quotes}, 0) + coalesce(${postMetrics.clicks}, 0)`.as("engagement"),
    })
    .from(postMetrics)
    .where(and(eq(postMetrics.userId, userId), eq(postMetrics.draftType, type), isNull(postMetrics.note)))
    .orderBy(postMetrics.draftId, desc(postMetrics.collectedAt))
    .as("latest");
  const rows = await db
    .select({ body: t.body })
    .from(t)
    .innerJoin(latest, eq(latest.draftId, t.id))
    .where(and(eq(t.userId, userId), eq(t.status, "published"), isNull(t.untrustedSource), gt(latest.engagement, 0)))
    .orderBy(desc(latest.engagement))
    .limit(limit);
  return rows.map((r) => r.body);
}

/** Every read of one post, oldest first (its page's history). */
export async function metricsHistory(db: Db, userId: string, type: DraftType, id: string) {
  return db
    .select()
    .from(postMetrics)
    .where(and(eq(postMetrics.userId, userId), eq(postMetrics.draftType, type), eq(postMetrics.draftId, id)))
    .orderBy(asc(postMetrics.collectedAt));
}

export async function getPostMetrics(ctx: Ctx, input: MetricsQuery) {
  const { db } = ctx;
  const userId = ctx.caller.userId;
  const notes: string[] = [];
  if (input.id !== undefined) {
    if (!input.type) throw new AppError("invalid_request", "id needs its type (post or tweet)");
    const t = draftTable(input.type);
    const [own] = isUuid(input.id)
      ? await db
          .select({ status: t.status })
          .from(t)
          .where(and(eq(t.id, input.id), eq(t.userId, userId)))
      : [];
    if (!own) throw notFound(label(input.type));
    if (own.status !== "published") notes.push(`This ${label(input.type)} is ${own.status}: only published posts have engagement.`);
  }
  const now = ctx.now();
  const range = input.id ? {} : { from: input.from ?? new Date(now.getTime() - 90 * DAY_MS), to: input.to ?? now };
  let rows = await publishedPosts(db, userId, { ...input, ...range });
  if (rows.length > POSTS_LIMIT) {
    rows = rows.slice(0, POSTS_LIMIT);
    notes.push(`Only the ${POSTS_LIMIT} most recently published posts are listed; narrow from and to for the others.`);
  }
  const reads = rows.length
    ? await db
        .select()
        .from(postMetrics)
        .where(
          and(
            eq(postMetrics.userId, userId),
            inArray(
              postMetrics.draftId,
              rows.map((r) => r.id),
            ),
          ),
        )
        .orderBy(desc(postMetrics.collectedAt))
    : [];
  const posts: PostWithMetrics[] = rows.map((r) => {
    const mine = reads.filter((m) => m.draftId === r.id && m.draftType === r.type);
    const latest = mine.find((m) => m.note === null);
    if (!latest) {
      const why = mine[0]?.note ?? `Not read yet: the first read comes ${ctx.ports.config().METRICS_AFTER.split(",")[0].trim()} after publishing.`;
      notes.push(`${r.type} ${r.id}: ${why}`);
    }
    const metrics = latest
      ? {
          impressions: latest.impressions,
          likes: latest.likes,
          replies: latest.replies,
          reposts: latest.reposts,
          quotes: latest.quotes,
          clicks: latest.clicks,
        }
      : null;
    return {
      type: r.type,
      id: r.id,
      title: r.title,
      platform: platformOf(r.type),
      network: networkOfPost(platformOf(r.type), r.postId).id,
      url: r.url,
      published_at: r.publishedAt.toISOString(),
      metrics,
      collected_at: latest?.collectedAt.toISOString() ?? null,
      pillar: r.pillar,
    };
  });
  return {
    posts,
    summary: summarize(posts, ctx.caller.timezone),
    read_budget: { x: await xReads(db, userId, ctx.ports.config().METRICS_X_READS_PER_MONTH, now) },
    notes,
  };
}

/** Best posts, and averages by pillar and by the hour (owner's time zone) each went out. */
export function summarize(posts: PostWithMetrics[], timeZone: string) {
  const measured = posts.filter((p): p is PostWithMetrics & { metrics: Engagement } => p.metrics !== null);
  const best = [...measured]
    .sort((a, b) => engagementOf(b.metrics) - engagementOf(a.metrics) || (b.metrics.impressions ?? 0) - (a.metrics.impressions ?? 0))
    .slice(0, BEST)
    .map((p) => ({ type: p.type, id: p.id, title: p.title, engagement: engagementOf(p.metrics), impressions: p.metrics.impressions }));
  const group = <K extends string | number>(key: (p: (typeof measured)[number]) => K) => {
    const by = new Map<K, (typeof measured)[number][]>();
    for (const p of measured) by.set(key(p), [...(by.get(key(p)) ?? []), p]);
    return [...by.entries()].map(([k, ps]) => ({
      key: k,
      posts: ps.length,
      average_engagement: Math.round((ps.reduce((s, p) => s + engagementOf(p.metrics), 0) / ps.length) * 10) / 10,
      average_impressions: average(ps.map((p) => p.metrics.impressions)),
    }));
  };
  return {
    best,
    by_pillar: group((p) => p.pillar ?? "(none)")
      .map(({ key, ...g }) => ({ pillar: key, ...g }))
      .sort((a, b) => b.average_engagement - a.average_engagement),
    by_hour: group((p) => Number(zonedParts(new Date(p.published_at), timeZone).time.slice(0, 2)))
      .map(({ key, ...g }) => ({ hour: key, ...g }))
      .sort((a, b) => a.hour - b.hour),
  };
}

function average(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? Math.round((known.reduce((s, v) => s + v, 0) / known.length) * 10) / 10 : null;
}
