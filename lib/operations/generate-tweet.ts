import { z } from "zod";
import { generateTweet } from "@/lib/domain/generation";
import { defineOperation } from "./define";
import { Uuid } from "./schemas";

const Common = {
  instructions: z.string().max(2000).optional().describe("Wishes for angle or style, at most 2000 characters"),
  series_topic_id: Uuid.optional().describe("The series topic this tweet is written for (makes it in_progress)"),
};

export const generateTweetOp = defineOperation({
  name: "generate_tweet",
  title: "Write a tweet draft",
  summary: "Write a tweet draft",
  description:
    "Writes one tweet (micro) in the user's trained voice and saves it to the tweet drafts, always within 280 characters as X counts them. Give exactly one of topic (the topic is also saved as an idea) or from_post_id (condenses that existing post draft into a tweet stored against it). Never publishes. Each call uses one AI action of the monthly plan allowance plus AI credits. To save a tweet you already wrote, use create_draft.",
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  // Exactly one of topic and from_post_id, as two strict shapes so the OpenAPI document says so too.
  input: z.union([
    z.strictObject({
      topic: z.string().trim().min(3).max(2000).describe("What the tweet is about, 3 to 2000 characters"),
      ...Common,
    }),
    z.strictObject({
      from_post_id: Uuid.describe("A post draft to condense into a tweet (instead of topic)"),
      ...Common,
    }),
  ]),
  output: z.strictObject({
    draft_id: z.string(),
    text: z.string(),
    from_post_id: z.string().nullable(),
  }),
  run: (ctx, input) => generateTweet(ctx, input),
});
