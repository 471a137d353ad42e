import { boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { series } from "./series";
import { userRef } from "./owner-columns";

export type TopicStatus = "pending" | "in_progress" | "done" | "skipped";

export const seriesTopics = pgTable(
  "series_topics",
  {
    id: id(),
    seriesId: uuid("series_id")
      .notNull()
      .references(() => series.id, { onDelete: "cascade" }),
    userId: userRef(),
    orderIndex: integer("order_index").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    status: text("status").$type<TopicStatus>().notNull().default("pending"),
    pronetCompleted: boolean("pronet_completed").notNull().default(false),
    microCompleted: boolean("micro_completed").notNull().default(false),
    pronetPostId: text("pronet_post_id"),
    microPostId: text("micro_post_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("series_topics_series_idx").on(t.seriesId, t.orderIndex)],
);
