import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { perDatabase } from "@/lib/adapters/db/per-database";
import { readable } from "@/lib/adapters/db/readable";
import { notFound } from "@/lib/core/errors";
import { articles, ideas, postDrafts, series, seriesTopics, tweetDrafts } from "@/drizzle/schema";
import type { Ctx } from "../context";
import { seriesView, topicView } from "../series/series";
import { FETCH_BODY_LIMIT, iso } from "./text";
import { cardNote } from "./link-card";

export type ItemType = "post" | "tweet" | "article" | "idea" | "series";

const LABEL: Record<ItemType, string> = {
  post: "post draft",
  tweet: "tweet draft",
  article: "article",
  idea: "idea",
  series: "series",
};

/** Body with the 6,000-character cut (docs/interface.md, Reading an item), never splitting a surrogate pair. */
function truncate(body: string | null, notes: string[]) {
  // UTF-16 units are never fewer than characters: most bodies need no counting.
  if (body === null || body.length <= FETCH_BODY_LIMIT) return { body, body_truncated: false };
  const chars = Array.from(body);
  if (chars.length <= FETCH_BODY_LIMIT) return { body, body_truncated: false };
  notes.push(`The body was truncated to ${FETCH_BODY_LIMIT} of its ${chars.length} characters.`);
  return { body: chars.slice(0, FETCH_BODY_LIMIT).join(""), body_truncated: true };
}

const common = (row: { id: string; title: string; createdAt: Date; updatedAt: Date }, type: ItemType) => ({
  id: row.id,
  type,
  title: row.title,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

const links = (l: Partial<{ post_draft_id: string | null; personal_idea_id: string | null; carousel_project_id: string | null }>) => ({
  post_draft_id: l.post_draft_id ?? null,
  personal_idea_id: l.personal_idea_id ?? null,
  carousel_project_id: l.carousel_project_id ?? null,
});

// Optional keys appear only when they hold something.
const optional = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)));

type DraftRow = typeof tweetDrafts.$inferSelect;

function draftNotes(d: Pick<DraftRow, "status" | "failureReason" | "publishedAt" | "platformPostId" | "platformUrl">, notes: string[]) {
  if (d.failureReason && (d.status === "failed" || d.status === "unknown")) notes.push(`Publishing ${d.status}: ${d.failureReason}`);
  if (d.status === "removed") notes.push(`Removed: ${d.failureReason ?? "its network no longer has it"}${d.platformUrl ? ` (it was ${d.platformUrl})` : ""}`);
  // The item has no keys for these (docs/interface.md, Reading an item: no other keys), so the post id and link go in a note.
  if (d.status === "published" && d.platformPostId) {
    notes.push(`Published${d.publishedAt ? ` at ${iso(d.publishedAt)}` : ""} as ${d.platformPostId}${d.platformUrl ? `: ${d.platformUrl}` : ""}`);
  }
}

/** One item of the caller in full; another user's id answers exactly like a missing one. */
export async function fetchItem(ctx: Ctx, input: { id: string; type: ItemType }) {
  const uid = ctx.caller.userId;
  const notes: string[] = [];
  const row = await load(ctx, input.type, input.id, uid);
  if (!row) throw notFound(LABEL[input.type]);
  switch (row.kind) {
    case "post":
    case "tweet": {
      const d = row.data;
      draftNotes(d, notes);
      const card = row.kind === "post" ? cardNote(row.data) : null;
      if (card) notes.push(card);
      return {
        ...common(d, row.kind),
        status: d.status,
        ...truncate(d.body, notes),
        scheduled_for: iso(d.scheduledFor),
        platform: row.kind === "post" ? "pronet" : "micro",
        hashtags: d.hashtags,
        links: links(row.kind === "post" ? { personal_idea_id: row.ideaId, carousel_project_id: row.carouselProjectId } : { post_draft_id: row.postDraftId }),
        ...optional({
          account_id: d.accountId,
          image_url: d.imageUrl,
          image_urls: d.imageUrls,
          ...(row.kind === "post" ? { document_url: row.data.documentUrl, document_title: row.data.documentTitle } : { thread: row.data.thread }),
          first_comment: d.firstComment,
          first_comment_result: d.firstCommentStatus && {
            status: d.firstCommentStatus === "pending" || d.firstCommentStatus === "posting" ? "posting" : d.firstCommentStatus,
            url: d.firstCommentUrl,
            reason: d.firstCommentReason,
          },
          untrusted_source: d.untrustedSource,
          notes,
        }),
      };
    }
    case "article":
    case "idea": {
      const d = row.data;
      const item = { ...common(d, row.kind), status: d.status, ...truncate(d.body, notes), scheduled_for: null, platform: null };
      return {
        ...item,
        tags: d.tags,
        ...optional({ image_url: "imageUrl" in d ? d.imageUrl : null, untrusted_source: d.untrustedSource, notes }),
      };
    }
    case "series": {
      const { data: s, topics } = row;
      const { id: _id, title: _title, description: _description, ...progress } = seriesView(s, topics);
      return {
        ...common(s, "series"),
        status: s.completedAt ? "completed" : s.isActive ? "active" : "paused",
        ...truncate(s.description, notes),
        scheduled_for: null,
        platform: null,
        series: progress,
        topics: topics.map(topicView),
        ...optional({ notes }),
      };
    }
  }
}

// One query per type, built once per database: fetch_item is the most frequent call.
const byId = { id: sql.placeholder("id"), uid: sql.placeholder("uid") };
const loadQueries = perDatabase((db: Db) => ({
  post: db
    .select(readable(postDrafts))
    .from(postDrafts)
    .where(and(eq(postDrafts.id, byId.id), eq(postDrafts.userId, byId.uid)))
    .prepare("fetch_post"),
  tweet: db
    .select(readable(tweetDrafts))
    .from(tweetDrafts)
    .where(and(eq(tweetDrafts.id, byId.id), eq(tweetDrafts.userId, byId.uid)))
    .prepare("fetch_tweet"),
  article: db
    .select(readable(articles))
    .from(articles)
    .where(and(eq(articles.id, byId.id), eq(articles.userId, byId.uid)))
    .prepare("fetch_article"),
  idea: db
    .select(readable(ideas))
    .from(ideas)
    .where(and(eq(ideas.id, byId.id), eq(ideas.userId, byId.uid)))
    .prepare("fetch_idea"),
  series: db
    .select(readable(series))
    .from(series)
    .where(and(eq(series.id, byId.id), eq(series.userId, byId.uid)))
    .prepare("fetch_series"),
}));

async function load(ctx: Ctx, type: ItemType, id: string, uid: string) {
  const db = ctx.db;
  const queries = loadQueries(db);
  const args = { id, uid };
  switch (type) {
    case "post": {
      const [d] = await queries.post.execute(args);
      return d && { kind: "post" as const, data: d, ideaId: d.ideaId, carouselProjectId: d.carouselProjectId };
    }
    case "tweet": {
      const [d] = await queries.tweet.execute(args);
      return d && { kind: "tweet" as const, data: d, postDraftId: d.postDraftId };
    }
    case "article": {
      const [d] = await queries.article.execute(args);
      return d && { kind: "article" as const, data: d };
    }
    case "idea": {
      const [d] = await queries.idea.execute(args);
      return d && { kind: "idea" as const, data: d };
    }
    case "series": {
      const [s] = await queries.series.execute(args);
      if (!s) return undefined;
      const topics = await db.select().from(seriesTopics).where(eq(seriesTopics.seriesId, s.id)).orderBy(asc(seriesTopics.orderIndex));
      return { kind: "series" as const, data: s, topics };
    }
  }
}
