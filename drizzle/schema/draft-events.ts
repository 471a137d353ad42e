import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, jsonb } from "./columns";
import { userRef } from "./owner-columns";

export type DraftEventKind =
  | "created"
  | "edited"
  | "scheduled"
  | "unscheduled"
  | "published"
  | "failed"
  | "unknown"
  | "retrying"
  | "resolved_published"
  | "resolved_failed"
  // A first comment's outcome (the post's own stays as it was).
  | "comment_posted"
  | "comment_failed"
  | "comment_unknown"
  // Reads of the published post back (receipts): there, not known, or gone (the draft is removed).
  | "receipt_confirmed"
  | "receipt_unchecked"
  | "removed";

// The history of a post or tweet draft as its owner sees it on the item page: who created,
// edited, scheduled or published it, and each publish attempt's outcome. The draft row keeps
// only its latest state; this keeps the story and which app wrote each part of it.
export const draftEvents = pgTable(
  "draft_events",
  {
    id: id(),
    userId: userRef(),
    draftType: text("draft_type").$type<"post" | "tweet">().notNull(),
    // No foreign key: the id belongs to post_drafts or tweet_drafts depending on draft_type.
    draftId: uuid("draft_id").notNull(),
    kind: text("kind").$type<DraftEventKind>().notNull(),
    // "app" (with its name at the time, so a disconnected app still has one), "owner" in the
    // pages, or "scheduler".
    actor: text("actor").$type<"app" | "owner" | "scheduler">().notNull(),
    appName: text("app_name"),
    // Kind-specific facts: scheduled_for, url, reason, fields changed.
    detail: jsonb("detail").$type<Record<string, string | null>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("draft_events_draft_idx").on(t.draftId, t.createdAt)],
);
