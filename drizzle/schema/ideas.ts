import { sql } from "drizzle-orm";
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, jsonb, tsvector, updatedAt } from "./columns";
import { userRef } from "./owner-columns";

export type IdeaStatus = "new" | "used" | "archived";

export const ideas = pgTable(
  "ideas",
  {
    id: id(),
    userId: userRef(),
    title: text("title").notNull(),
    body: text("body"),
    status: text("status").$type<IdeaStatus>().notNull().default("new"),
    pillar: text("pillar"),
    tags: jsonb("tags").$type<string[]>().notNull().default([]),
    untrustedSource: text("untrusted_source"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    search: tsvector("search").generatedAlwaysAs(sql`to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body, ''))`),
  },
  (t) => [index("ideas_user_updated_idx").on(t.userId, t.updatedAt), index("ideas_search_idx").using("gin", t.search).with({ fastupdate: false })],
);
