import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id, tsvector, updatedAt } from "./columns";
import { userRef } from "./owner-columns";

export type SeriesStatus = "active" | "paused" | "completed";

export const series = pgTable(
  "series",
  {
    id: id(),
    userId: userRef(),
    title: text("title").notNull(),
    description: text("description"),
    pronetEnabled: boolean("pronet_enabled").notNull().default(true),
    microEnabled: boolean("micro_enabled").notNull().default(false),
    isActive: boolean("is_active").notNull().default(true),
    completedAt: at("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    search: tsvector("search").generatedAlwaysAs(sql`to_tsvector('english', coalesce(title, '') || ' ' || coalesce(description, ''))`),
  },
  (t) => [index("series_user_updated_idx").on(t.userId, t.updatedAt), index("series_search_idx").using("gin", t.search).with({ fastupdate: false })],
);
