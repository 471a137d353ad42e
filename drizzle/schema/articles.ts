import { sql } from "drizzle-orm";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, jsonb, tsvector, updatedAt } from "./columns";
import { userRef } from "./owner-columns";

export type ArticleStatus = "draft" | "published";

export const articles = pgTable(
  "articles",
  {
    id: id(),
    userId: userRef(),
    title: text("title").notNull(),
    body: text("body"),
    status: text("status").$type<ArticleStatus>().notNull().default("draft"),
    imageUrl: text("image_url"),
    tags: jsonb("tags").$type<string[]>().notNull().default([]),
    untrustedSource: text("untrusted_source"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    search: tsvector("search").generatedAlwaysAs(sql`to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body, ''))`),
  },
  (t) => [index("articles_user_updated_idx").on(t.userId, t.updatedAt), index("articles_search_idx").using("gin", t.search).with({ fastupdate: false })],
);
