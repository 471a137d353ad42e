import { z } from "zod";
import { manageQueue } from "@/lib/domain/queue/queue";
import { defineOperation } from "../define";
import { Uuid } from "../schemas";

const Weekday = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
const Slot = z.strictObject({
  weekday: Weekday,
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Must be HH:MM, 00:00 to 23:59")
    .describe("On the owner's wall clock, in their time zone"),
});

export const manageQueueOp = defineOperation({
  name: "manage_queue",
  title: "Read or set an account's posting queue",
  summary: "Read or set an account's posting queue",
  description:
    "An account's weekly posting slots in the owner's time zone (e.g. Monday to Friday at 09:00 and 17:30), which schedule_content " +
    'with slot "next" fills in order, one draft a slot. Without slots and paused it only reads. slots replaces the whole list; paused ' +
    "stops the queue taking drafts. Changing the slots never moves drafts already scheduled. next_slots are the next five free slot " +
    "times. account_id is from get_profile_context's accounts.",
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({
    account_id: Uuid.describe("The account whose queue this is"),
    slots: z.array(Slot).max(200).optional().describe("Every weekly slot (replaces them all); [] clears them"),
    paused: z.boolean().optional().describe("true: the queue takes no drafts until resumed"),
  }),
  output: z.strictObject({
    account_id: z.string(),
    timezone: z.string().describe("The owner's time zone, which the slots are in"),
    slots: z.array(Slot),
    paused: z.boolean(),
    next_slots: z.array(z.string()).describe("The next five free slot times, RFC 3339 with the time zone's offset (none while paused)"),
  }),
  run: (ctx, input) => manageQueue(ctx, input),
});
