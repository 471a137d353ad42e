import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, jsonb } from "./columns";
import { userRef } from "./owner-columns";

/**
 * One imported draft: the draft made for a row (`linked` the parent post a tweet was given,
 * made with it), and the time the row asked for, when it gave one.
 */
export type ImportedDraft = { row: number; type: "post" | "tweet"; id: string; linked: string | null; intended: string | null };

// An import (import_drafts, or the owner's Import page): the drafts it made, kept together so
// that the whole import is undone as one ("Remove these 14 drafts"). `by` is the app's name,
// or null for the owner in person. A draft deleted since is simply gone from the undo.
export const draftImports = pgTable(
  "draft_imports",
  {
    id: id(),
    userId: userRef(),
    by: text("by"),
    drafts: jsonb("drafts").$type<ImportedDraft[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("draft_imports_user_idx").on(t.userId, t.createdAt)],
);
