import { z } from "zod";
import { scheduleOnDay } from "@/lib/domain/publishing/calendar-move";
import { defineOperation } from "../define";
import { DraftType, Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const scheduleOnDayOp = defineOperation({
  name: "schedule_on_day",
  title: "Schedule on a day of the calendar",
  summary: "The calendar's drop of a draft on a day",
  description:
    "Schedules the owner's draft on a day of their calendar: a scheduled one keeps its time of day, an unscheduled one takes its " +
    "account's first free queue slot that day, else 09:00. The calendar shows titles only, so only content the owner has seen in full moves.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  input: z.strictObject({ type: DraftType, id: Uuid, day: z.string().max(10) }),
  output: z.strictObject({ id: z.string(), type: DraftType, scheduled_for: z.string(), rescheduled: z.boolean() }),
  run: (ctx, input) => scheduleOnDay(ctx, input),
});
