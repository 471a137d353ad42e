import { z } from "zod";
import { searchContent } from "@/lib/domain/drafts/search";
import { defineOperation } from "../define";
import { Cursor, ItemType, Limit, NextCursor, NullableTimestamp, Pillar, Platform, Timestamp } from "../schemas";

export const searchContentOp = defineOperation({
  name: "search_content",
  title: "Search content",
  summary: "Search posts, tweets, articles, ideas, series",
  description:
    "Finds the user's posts, tweets, articles, ideas and series by words in their title and text, best matches first; with " +
    "no query it lists the most recently updated. Each result gives the id and type that fetch_item needs to open it in full.",
  permission: "content:read",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({
    query: z.string().max(200).optional().describe('Words to look for (web-search syntax: "quoted phrase", -exclude, or); empty lists the most recent'),
    types: z.array(ItemType).min(1).max(5).optional().describe("Item types to include (default all)"),
    status: z.string().min(1).max(32).optional().describe("Only items in this status, e.g. draft, scheduled, published, new"),
    pillar: Pillar.optional().describe("Only items of this content pillar"),
    limit: Limit,
    cursor: Cursor.optional(),
  }),
  output: z.strictObject({
    results: z.array(
      z.strictObject({
        id: z.string(),
        type: ItemType,
        title: z.string(),
        snippet: z.string().max(200),
        status: z.string(),
        platform: Platform.nullable(),
        account_id: z.string().nullable().optional().describe("Posts and tweets: the account it goes to (null: the network's default)"),
        scheduled_for: NullableTimestamp,
        updated_at: Timestamp,
      }),
    ),
    next_cursor: NextCursor,
  }),
  run: (ctx, input) => searchContent(ctx, input),
});
