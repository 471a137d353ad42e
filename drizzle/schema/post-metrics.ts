import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { at, id } from "./columns";
import { userRef } from "./owner-columns";

// One read of a published post's engagement (lib/domain/metrics): what the network said at
// `collected_at`, or why it said nothing (`note`). A metric the network does not give is null.
export const postMetrics = pgTable(
  "post_metrics",
  {
    id: id(),
    userId: userRef(),
    draftType: text("draft_type").$type<"post" | "tweet">().notNull(),
    draftId: uuid("draft_id").notNull(),
    // The schedule's read it was (METRICS_AFTER's duration, e.g. "24h").
    window: text("window").notNull(),
    collectedAt: at("collected_at").notNull(),
    impressions: integer("impressions"),
    likes: integer("likes"),
    replies: integer("replies"),
    reposts: integer("reposts"),
    // Posts quoting it (X's quote_count, Bluesky's quoteCount; LinkedIn counts none apart).
    quotes: integer("quotes"),
    clicks: integer("clicks"),
    note: text("note"),
  },
  (t) => [index("post_metrics_draft_idx").on(t.userId, t.draftType, t.draftId, t.collectedAt)],
);
