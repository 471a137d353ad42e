import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

// What the built-in sandbox platform "published": shown at /sandbox/{platform}/{id}.
export const sandboxPosts = pgTable(
  "sandbox_posts",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platform: text("platform").$type<"pronet" | "micro">().notNull(),
    draftType: text("draft_type").$type<"post" | "tweet">().notNull(),
    draftId: uuid("draft_id").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sandbox_posts_draft_idx").on(t.draftId)],
);
