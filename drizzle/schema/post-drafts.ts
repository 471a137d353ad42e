import { index, pgTable, uuid } from "drizzle-orm/pg-core";
import { draftColumns } from "./draft-columns";
import { ideas } from "./ideas";
import { seriesTopics } from "./series-topics";
import { users } from "./users";

export const postDrafts = pgTable(
  "post_drafts",
  {
    ...draftColumns(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ideaId: uuid("idea_id").references(() => ideas.id, { onDelete: "set null" }),
    carouselProjectId: uuid("carousel_project_id"),
    seriesTopicId: uuid("series_topic_id").references(() => seriesTopics.id, { onDelete: "set null" }),
  },
  (t) => [
    index("post_drafts_user_updated_idx").on(t.userId, t.updatedAt),
    index("post_drafts_search_idx").using("gin", t.search),
    index("post_drafts_due_idx").on(t.status, t.scheduledFor),
  ],
);
