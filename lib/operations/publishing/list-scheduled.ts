import { z } from "zod";
import { listScheduled } from "@/lib/domain/publishing/list-scheduled";
import { defineOperation } from "../define";
import { Cursor, DraftType, Limit, NextCursor, Platform, RequestTimestamp, Timestamp } from "../schemas";

export const listScheduledOp = defineOperation({
  name: "list_scheduled",
  title: "List scheduled content",
  summary: "List what is scheduled in a date range",
  description:
    "Lists the user's post and tweet drafts whose scheduled time falls in [from, to), earliest first, with their status (scheduled, " +
    "publishing, published, failed, unknown), so upcoming posts and missed or failed ones are visible. from defaults to now, to to 30 " +
    "days after from; the range is at most 366 days. Use search_content to find unscheduled drafts and fetch_item to read one in full.",
  permission: "content:read",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({
    from: RequestTimestamp.optional().describe("Start of the range (inclusive); default now"),
    to: RequestTimestamp.optional().describe("End of the range (exclusive); default from + 30 days"),
    platform: Platform.optional().describe("Only drafts for this platform (pronet: posts, micro: tweets)"),
    limit: Limit,
    cursor: Cursor.optional(),
  }),
  output: z.strictObject({
    from: Timestamp,
    to: Timestamp,
    items: z.array(
      z.strictObject({
        id: z.string(),
        type: DraftType,
        title: z.string(),
        preview: z.string(),
        platform: Platform,
        account_id: z.string().nullable().describe("The account it goes to (null: the network's default, for drafts scheduled before accounts were chosen)"),
        scheduled_for: Timestamp,
        status: z.string(),
      }),
    ),
    next_cursor: NextCursor,
  }),
  run: (ctx, input) => listScheduled(ctx, input),
});
