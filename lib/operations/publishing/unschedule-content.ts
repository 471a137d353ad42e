import { z } from "zod";
import { unscheduleContent } from "@/lib/domain/publishing/schedule";
import { defineOperation } from "../define";
import { DraftType, NullableTimestamp, Uuid } from "../schemas";

export const unscheduleContentOp = defineOperation({
  name: "unschedule_content",
  title: "Take a draft off the schedule",
  summary: "Take a draft off the schedule",
  description:
    "Takes a scheduled post or tweet draft off the schedule so it is not published; the draft itself is kept (status draft). " +
    "Harmless on a draft that is not scheduled (unscheduled: false). A draft that is being published at this moment cannot " +
    "be taken back. To move a draft to another time, call schedule_content instead; to remove it entirely, delete_draft.",
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ type: DraftType, id: Uuid }),
  output: z.strictObject({
    id: z.string(),
    type: DraftType,
    unscheduled: z.boolean().describe("False when the draft was not scheduled"),
    previous_scheduled_for: NullableTimestamp.describe("The time it was scheduled for, when it was taken off"),
    status: z.string().describe("The draft's status now"),
  }),
  run: (ctx, input) => unscheduleContent(ctx, input),
});
