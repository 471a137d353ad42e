import { sql } from "drizzle-orm";
import { index, pgTable, uuid } from "drizzle-orm/pg-core";
import { jsonb } from "./columns";
import { draftColumns } from "./draft-columns";
import { postDrafts } from "./post-drafts";
import { seriesTopics } from "./series-topics";
import { userRef } from "./owner-columns";

/** A further part of a thread, posted as a reply to the part before it. */
export type ThreadPart = { text: string; image_urls: string[] };

// A tweet always hangs off a parent post draft; deleting the post removes its tweets.
export const tweetDrafts = pgTable(
  "tweet_drafts",
  {
    // Search finds a thread by any of its parts' text (to_tsvector of a JSON array takes its strings).
    ...draftColumns(sql`to_tsvector('english', jsonb_path_query_array(thread, '$[*].text'))`),
    userId: userRef(),
    postDraftId: uuid("post_draft_id")
      .notNull()
      .references(() => postDrafts.id, { onDelete: "cascade" }),
    seriesTopicId: uuid("series_topic_id").references(() => seriesTopics.id, { onDelete: "set null" }),
    // Parts 2.. of a thread (body is part 1); empty for a single tweet.
    thread: jsonb("thread").$type<ThreadPart[]>().notNull().default([]),
  },
  (t) => [
    index("tweet_drafts_user_updated_idx").on(t.userId, t.updatedAt),
    index("tweet_drafts_post_idx").on(t.postDraftId),
    index("tweet_drafts_search_idx").using("gin", t.search).with({ fastupdate: false }),
    index("tweet_drafts_due_idx").on(t.status, t.scheduledFor),
    // Published posts whose engagement is still to be read (a few weeks' worth).
    index("tweet_drafts_metrics_due_idx")
      .on(t.metricsDueAt)
      .where(sql`status = 'published' and not metrics_done`),
    // Published posts still to be read back (a receipt): an hour's worth.
    index("tweet_drafts_receipt_due_idx")
      .on(t.receiptDueAt)
      .where(sql`status = 'published' and not receipt_done`),
    // First comments waiting for the scheduler, or being posted (a few at any time).
    index("tweet_drafts_comment_due_idx")
      .on(t.firstCommentStatus)
      .where(sql`first_comment_status in ('pending', 'posting')`),
  ],
);
