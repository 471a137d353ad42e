import { sql, type SQL } from "drizzle-orm";
import { boolean, integer, text, uuid } from "drizzle-orm/pg-core";
import { publishingAccounts } from "./publishing-accounts";
import { at, createdAt, id, jsonb, tsvector, updatedAt } from "./columns";

/** `removed`: published, then found gone when read back (lib/domain/publishing/receipts.ts). */
export type DraftStatus = "draft" | "scheduled" | "publishing" | "published" | "failed" | "unknown" | "removed";

/**
 * A first comment's course once its post is out: `pending` until claimed, `posting` while
 * one process calls the network, then `posted`, `failed` (nothing was posted) or `unknown`
 * (the call may have reached the network). Only the owner tries a failed or unknown one again.
 */
export type FirstCommentStatus = "pending" | "posting" | "posted" | "failed" | "unknown";

/**
 * What has already reached the platform for a draft being published part by part (thread
 * parts, uploaded media), recorded as each part succeeds so a resumed publish never sends a
 * part twice. `parts[k]` is part k (0: the first tweet or the post itself); `media` maps a
 * media id of this service to the platform's id for it.
 */
export type PublishProgress = {
  parts: { postId: string; url: string | null }[];
  media: Record<string, string>;
  // When an upload stops being usable (X media ids expire, e.g. after a day): a resume after
  // that uploads the medium again instead of naming an id the platform has forgotten.
  mediaExpires?: Record<string, string>;
  // The record key chosen for part k before it was sent (Bluesky): a repeated send names the
  // same record, which the network refuses rather than posting it twice.
  keys?: string[];
};

// Columns shared by post and tweet drafts: text, schedule state and the publishing record.
/** `alsoSearched`: a tsvector of further text the table's search covers (a tweet's thread parts). */
export const draftColumns = (alsoSearched?: SQL) => ({
  id: id(),
  title: text("title").notNull(),
  body: text("body").notNull(),
  status: text("status").$type<DraftStatus>().notNull().default("draft"),
  // The first of image_urls (kept for older readers); image_urls is the list.
  imageUrl: text("image_url"),
  imageUrls: jsonb("image_urls").$type<string[]>().notNull().default([]),
  hashtags: jsonb("hashtags").$type<string[]>().notNull().default([]),
  pillar: text("pillar"),
  untrustedSource: text("untrusted_source"),
  scheduledFor: at("scheduled_for"),
  publishAttempts: integer("publish_attempts").notNull().default(0),
  // Retries of failures known to have posted nothing: when the first try began, when next.
  firstAttemptAt: at("first_attempt_at"),
  nextAttemptAt: at("next_attempt_at"),
  // When publishing last claimed it (the stuck sweep measures from here). Kept apart from
  // updated_at, which only edits move, so a retry never invalidates a client's if_updated_at.
  claimedAt: at("claimed_at"),
  publishedAt: at("published_at"),
  platformPostId: text("platform_post_id"),
  platformUrl: text("platform_url"),
  publishProgress: jsonb("publish_progress").$type<PublishProgress>(),
  // Why the last publish failed or is unconfirmed; shown to the owner in notes.
  failureReason: text("failure_reason"),
  // Hash of the content (title, text, image) the owner approved when it was scheduled, or
  // when an edit of the scheduled draft was approved. The scheduler posts only content that
  // still hashes to it.
  approvedContentHash: text("approved_content_hash"),
  // Posted right after the post (LinkedIn: a comment on it; X: a reply to its last part),
  // at most once; its outcome is its own, and does not change the post's.
  firstComment: text("first_comment"),
  // The account it goes to (publishing_accounts); null: the network's default, which
  // scheduling and publishing bind here so that the approval names where it goes.
  accountId: uuid("account_id").references(() => publishingAccounts.id, { onDelete: "set null" }),
  firstCommentStatus: text("first_comment_status").$type<FirstCommentStatus>(),
  firstCommentClaimedAt: at("first_comment_claimed_at"),
  firstCommentPostId: text("first_comment_post_id"),
  firstCommentUrl: text("first_comment_url"),
  firstCommentReason: text("first_comment_reason"),
  // Reads of its engagement once published (lib/domain/metrics/collect.ts): the index in the
  // schedule (METRICS_AFTER) of the next read, and its time (null: the first one, measured
  // from published_at); done when none is left.
  metricsNext: integer("metrics_next").notNull().default(0),
  metricsDueAt: at("metrics_due_at"),
  metricsDone: boolean("metrics_done").notNull().default(false),
  // Reads of the post back once published (lib/domain/publishing/receipts.ts), on the same
  // kind of schedule (RECEIPTS_AFTER): the next read's index, its time, done when none is left.
  receiptNext: integer("receipt_next").notNull().default(0),
  receiptDueAt: at("receipt_due_at"),
  receiptDone: boolean("receipt_done").notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  search: tsvector("search").generatedAlwaysAs(
    alsoSearched
      ? sql`to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body, '')) || ${alsoSearched}`
      : sql`to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body, ''))`,
  ),
});
