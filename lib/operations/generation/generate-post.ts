import { z } from "zod";
import { generatePost } from "@/lib/domain/generation/generation";
import { defineOperation } from "../define";
import { Pillar, Uuid } from "../schemas";
import { createAccountField } from "../accounts/fields";

export const generatePostOp = defineOperation({
  name: "generate_post",
  title: "Write a professional-network post draft",
  summary: "Write a professional-network post draft",
  description:
    "Writes one professional-network (pronet) post in the user's trained voice about a topic and saves it as a " +
    "private draft (save_as_draft false returns the text without saving). Never publishes or schedules. Each call " +
    "uses one post of the monthly plan allowance plus AI credits, also when you discard the text, so do not call it " +
    "to brainstorm many variants. To save text you already have, use create_draft; for a tweet use generate_tweet.",
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  longRunning: true,
  input: z
    .strictObject({
      topic: z.string().trim().min(3).max(2000).describe("What the post is about, 3 to 2000 characters"),
      instructions: z.string().max(2000).optional().describe("Wishes for angle, length or style, at most 2000 characters"),
      pillar: Pillar.optional().describe("Content pillar, stored on the draft"),
      save_as_draft: z.boolean().default(true).describe("false returns the text without saving it"),
      series_topic_id: Uuid.optional().describe("The series topic this post is written for (makes it in_progress); needs save_as_draft"),
      ...createAccountField,
    })
    .superRefine((v, ctx) => {
      if (v.series_topic_id && !v.save_as_draft) {
        ctx.addIssue({ code: "custom", path: ["series_topic_id"], message: "series_topic_id links a saved draft: leave save_as_draft true" });
      }
    }),
  output: z.strictObject({
    draft_id: z.string().nullable().describe("The saved post draft, or null when not saved"),
    title: z.string(),
    body: z.string().max(3000),
    saved: z.boolean(),
  }),
  run: (ctx, input) => generatePost(ctx, input),
});
