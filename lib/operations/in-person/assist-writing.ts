import { z } from "zod";
import { assist } from "@/lib/domain/generation/assist";
import { MAX_THREAD_PARTS } from "@/lib/domain/media/draft-media";
import { defineOperation } from "../define";
import { Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

const Text = z.string().trim().min(1, "Write some text first").max(3000);
/** The account chosen in the composer: the text is written for its network (a tweet: X or Bluesky); absent, the default's. */
const Account = { account_id: Uuid.optional() };

export const assistWritingOp = defineOperation({
  name: "assist_writing",
  title: "AI help in the composer",
  summary: "The composer's Write with AI, Shorten, Rewrite and Turn into a thread",
  description:
    "Writes, shortens or rewrites text, or makes a thread of it, in the owner's voice, for the composer's editor: nothing is saved. " +
    "A tweet is written within the limit of the network of the account chosen (account_id, else the default microblog account). " +
    "Uses the plan's allowance as generate_post and generate_tweet do.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  longRunning: true,
  input: z.discriminatedUnion("action", [
    z.strictObject({
      action: z.literal("write"),
      format: z.enum(["post", "tweet"]),
      topic: z.string().trim().min(3, "Say what it is about, in at least 3 characters").max(2000),
      instructions: z.string().trim().max(2000).optional(),
      ...Account,
    }),
    z.strictObject({ action: z.enum(["shorten", "rewrite"]), format: z.enum(["post", "tweet"]), text: Text, ...Account }),
    z.strictObject({
      action: z.literal("thread"),
      text: Text,
      parts: z.coerce
        .number()
        .int()
        .min(2)
        .max(MAX_THREAD_PARTS + 1),
      ...Account,
    }),
  ]),
  output: z.strictObject({ parts: z.array(z.string()) }),
  run: async (ctx, input) => ({ parts: await assist(ctx, input) }),
});
