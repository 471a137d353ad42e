import { z } from "zod";
import { scheduleContent } from "@/lib/domain/publishing/schedule";
import { defineOperation } from "../define";
import { DraftType, PlanLabel, Platform, RequestTimestamp, Timestamp, Uuid } from "../schemas";

export const scheduleContentOp = defineOperation({
  name: "schedule_content",
  title: "Schedule a draft",
  summary: "Schedule a draft",
  description:
    "Schedules a post draft (published to the professional network) or a tweet draft (published to the microblog) to be published " +
    "automatically at scheduled_for, an RFC 3339 time with an offset, at least a minute and at most 365 days ahead. Calling it for an already " +
    'scheduled draft moves it to the new time in one step. slot "next" instead of scheduled_for takes the next free slot of the account\'s ' +
    "posting queue (manage_queue); the answer gives the time. Use it whenever the user mentions a time; use publish_now only to post " +
    "immediately, and unschedule_content to take a draft back. Needs the owner's publishing switch and the owner's approval of this exact " +
    "draft and time: without it the answer is confirmation_required with a link for the user; after they approve, repeat the same call.",
  permission: "content:publish",
  confirmation: true,
  approval: { verb: "schedule" },
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  input: z
    .strictObject({
      type: DraftType,
      id: Uuid,
      scheduled_for: RequestTimestamp.optional().describe("When to publish: RFC 3339 with an offset, e.g. 2026-11-22T09:30:00+01:00"),
      slot: z.literal("next").optional().describe("Instead of scheduled_for: the next free slot of the queue of the account it goes to (manage_queue)"),
      confirmation_id: Uuid.optional().describe("The approval to use, from error.confirmation.id (optional)"),
      plan: PlanLabel.optional(),
    })
    .superRefine((v, ctx) => {
      if ((v.scheduled_for === undefined) === (v.slot === undefined))
        ctx.addIssue({ code: "custom", path: ["scheduled_for"], message: 'Give either scheduled_for or slot "next"' });
    })
    .meta({ oneOf: [{ required: ["scheduled_for"] }, { required: ["slot"] }] }),
  output: z.strictObject({
    id: z.string(),
    type: DraftType,
    platform: Platform,
    scheduled_for: Timestamp,
    status: z.literal("scheduled"),
    rescheduled: z.boolean().describe("True when the draft was already scheduled and has been moved"),
  }),
  run: (ctx, input) => scheduleContent(ctx, input),
});
