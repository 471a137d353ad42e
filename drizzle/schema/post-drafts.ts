import { sql } from "drizzle-orm";
import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { jsonb } from "./columns";
import { draftColumns } from "./draft-columns";
import { ideas } from "./ideas";
import { seriesTopics } from "./series-topics";
import { userRef } from "./owner-columns";

/**
 * The link card a LinkedIn post with a link and no media carries (its article content), from
 * the linked page's Open Graph tags, as the owner saw or edited it: `source` is the link it is
 * for; `image` the picture's address (uploaded to LinkedIn when the post goes out). `error`:
 * the page could not be read, and the post goes without a card (read again after a while);
 * `readAt` when it was read.
 */
export type LinkCard = { source: string; title: string; description: string; image: string | null; error?: string; readAt?: string };

export const postDrafts = pgTable(
  "post_drafts",
  {
    ...draftColumns(),
    userId: userRef(),
    ideaId: uuid("idea_id").references(() => ideas.id, { onDelete: "set null" }),
    carouselProjectId: uuid("carousel_project_id"),
    seriesTopicId: uuid("series_topic_id").references(() => seriesTopics.id, { onDelete: "set null" }),
    // A PDF shown as a LinkedIn document carousel (never together with images).
    documentUrl: text("document_url"),
    documentTitle: text("document_title"),
    linkCard: jsonb("link_card").$type<LinkCard>(),
  },
  (t) => [
    index("post_drafts_user_updated_idx").on(t.userId, t.updatedAt),
    index("post_drafts_search_idx").using("gin", t.search).with({ fastupdate: false }),
    index("post_drafts_due_idx").on(t.status, t.scheduledFor),
    // Published posts whose engagement is still to be read (a few weeks' worth).
    index("post_drafts_metrics_due_idx")
      .on(t.metricsDueAt)
      .where(sql`status = 'published' and not metrics_done`),
    // Published posts still to be read back (a receipt): an hour's worth.
    index("post_drafts_receipt_due_idx")
      .on(t.receiptDueAt)
      .where(sql`status = 'published' and not receipt_done`),
    // First comments waiting for the scheduler, or being posted (a few at any time).
    index("post_drafts_comment_due_idx")
      .on(t.firstCommentStatus)
      .where(sql`first_comment_status in ('pending', 'posting')`),
  ],
);
