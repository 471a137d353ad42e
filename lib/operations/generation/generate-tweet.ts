import { z } from "zod";
import { MAX_THREAD_PARTS } from "@/lib/domain/media/draft-media";
import { generateTweet, THREAD_PARTS_DEFAULT } from "@/lib/domain/generation/generation";
import { defineOperation } from "../define";
import { Uuid } from "../schemas";
import { createAccountField } from "../accounts/fields";

const Common = {
  instructions: z.string().max(2000).optional().describe("Wishes for angle or style, at most 2000 characters"),
  series_topic_id: Uuid.optional().describe("The series topic this tweet is written for (makes it in_progress)"),
  ...createAccountField,
  as_thread: z.literal(true).optional().describe("Write a thread instead of one tweet (stored as the draft's body and thread)"),
  parts: z
    .number()
    .int()
    .min(2)
    .max(MAX_THREAD_PARTS + 1)
    .optional()
    .describe(`With as_thread: how many tweets, ${2} to ${MAX_THREAD_PARTS + 1} (default ${THREAD_PARTS_DEFAULT})`),
};

/** parts only with as_thread: a count of tweets means nothing for one tweet. */
const partsNeedThread = (v: { as_thread?: true; parts?: number }, ctx: z.RefinementCtx) => {
  if (v.parts !== undefined && !v.as_thread) ctx.addIssue({ code: "custom", path: ["parts"], message: "parts needs as_thread: true" });
};

export const generateTweetOp = defineOperation({
  name: "generate_tweet",
  title: "Write a tweet draft",
  summary: "Write a tweet draft",
  description:
    `Writes one tweet (micro) in the user's trained voice and saves it to the tweet drafts, always within the limit of the ` +
    `account's network (account_id, else the default microblog account; X: 280 as X counts them; Bluesky: 300 graphemes). Give ` +
    `exactly one of topic (the topic is also saved as an idea) or from_post_id (condenses that existing post draft into a tweet ` +
    `stored against it). With as_thread: true it writes a thread of parts tweets (2 to ${MAX_THREAD_PARTS + 1}, default ` +
    `${THREAD_PARTS_DEFAULT}) instead: text is the first, thread the rest, saved as one draft. Never publishes. Each call (a thread ` +
    `too) uses one AI action of the monthly plan allowance plus AI credits. To save a tweet you already wrote, use create_draft.`,
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  longRunning: true,
  // Exactly one of topic and from_post_id, as two strict shapes so the OpenAPI document says so too.
  input: z.union([
    z
      .strictObject({
        topic: z.string().trim().min(3).max(2000).describe("What the tweet is about, 3 to 2000 characters"),
        ...Common,
      })
      .superRefine(partsNeedThread),
    z
      .strictObject({
        from_post_id: Uuid.describe("A post draft to condense into a tweet (instead of topic)"),
        ...Common,
      })
      .superRefine(partsNeedThread),
  ]),
  output: z.strictObject({
    draft_id: z.string(),
    text: z.string(),
    from_post_id: z.string().nullable(),
    thread: z.array(z.string()).optional().describe("With as_thread: the tweets after text, in order"),
  }),
  run: (ctx, input) => generateTweet(ctx, input),
});
