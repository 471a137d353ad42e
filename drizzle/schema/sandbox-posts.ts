import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, jsonb } from "./columns";
import { userRef } from "./owner-columns";

// What the built-in sandbox platform "published": shown at /sandbox/{platform}/{id}.
export const sandboxPosts = pgTable(
  "sandbox_posts",
  {
    id: id(),
    userId: userRef(),
    platform: text("platform").$type<"pronet" | "micro">().notNull(),
    draftType: text("draft_type").$type<"post" | "tweet">().notNull(),
    draftId: uuid("draft_id").notNull(),
    text: text("text").notNull(),
    // Media of this service shown with it (images, or one PDF document), in order.
    mediaIds: jsonb("media_ids").$type<string[]>().notNull().default([]),
    documentTitle: text("document_title"),
    // A thread part: its position (0: the first) and the sandbox post it replies to.
    part: integer("part").notNull().default(0),
    inReplyTo: uuid("in_reply_to"),
    createdAt: createdAt(),
  },
  (t) => [index("sandbox_posts_draft_idx").on(t.draftId)],
);
