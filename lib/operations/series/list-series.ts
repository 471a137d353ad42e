import { z } from "zod";
import { listSeries } from "@/lib/domain/series/series";
import { defineOperation } from "../define";
import { Cursor, Limit, NextCursor, NullableTimestamp, Timestamp } from "../schemas";

export const listSeriesOp = defineOperation({
  name: "list_series",
  title: "List series and progress",
  summary: "List series and progress",
  description:
    "Lists the user's multi-part content series, newest first, with how many topics are finished and " +
    "the next topic to write. Paused (inactive) series are left out unless include_inactive is true. To " +
    "see every topic of one series use fetch_item with type series; to change a series use manage_series.",
  permission: "content:read",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({
    include_inactive: z.boolean().default(false).describe("Also list paused series (default false)"),
    limit: Limit,
    cursor: Cursor.optional(),
  }),
  output: z.strictObject({
    series: z.array(
      z.strictObject({
        id: z.string(),
        title: z.string(),
        description: z.string().nullable(),
        is_active: z.boolean(),
        pronet_enabled: z.boolean(),
        micro_enabled: z.boolean(),
        total_topics: z.number(),
        completed_topics: z.number().describe("Topics done or skipped"),
        completed_at: NullableTimestamp,
        next_topic: z.strictObject({ id: z.string(), title: z.string(), order_index: z.number() }).nullable().describe("First pending or in-progress topic"),
        created_at: Timestamp,
        updated_at: Timestamp,
      }),
    ),
    next_cursor: NextCursor,
  }),
  run: (ctx, input) => listSeries(ctx, input),
});
