import { z } from "zod";
import { compose } from "@/lib/domain/drafts/compose";
import { defineOperation } from "../define";
import { createDraftOp } from "../drafts/create-draft";
import { DraftType, RequestTimestamp } from "../schemas";
import { Alts, checkWhen, IN_PERSON, Refused } from "./shared";

export const composeOp = defineOperation({
  name: "compose",
  title: "Write and finish in the composer",
  summary: "The composer's Save, Add to queue, Schedule and Publish now for new drafts",
  description:
    "Creates the drafts the owner wrote in the composer (a post, a tweet, or both, the tweet then being the post's), each as create_draft " +
    "creates one, gives their images the descriptions typed beside them, then saves, queues, schedules or publishes each on the content " +
    "just saved. The drafts stay saved whatever happens after: a refusal is part of the answer.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  longRunning: true,
  input: z
    .strictObject({
      drafts: z.array(createDraftOp.input).min(1).max(2),
      alts: Alts.optional(),
      then: z.enum(["save", "queue", "schedule", "publish"]),
      scheduled_for: RequestTimestamp.optional(),
    })
    .superRefine((v, ctx) => {
      if (new Set(v.drafts.map((d) => d.type)).size !== v.drafts.length)
        ctx.addIssue({ code: "custom", path: ["drafts"], message: "At most one post and one tweet" });
      checkWhen(v, ctx);
    }),
  output: z.strictObject({
    saved: z.array(z.strictObject({ type: DraftType, id: z.string(), done: z.string().optional(), scheduled_for: z.string().optional() })),
    refused: Refused.optional(),
  }),
  run: (ctx, input) => compose(ctx, input),
});
