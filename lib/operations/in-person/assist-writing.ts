import { z } from "zod";
import { assist } from "@/lib/domain/generation/assist";
import { MAX_THREAD_PARTS } from "@/lib/domain/media/draft-media";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

const Text = z.string().trim().min(1, "Write some text first").max(3000);

export const assistWritingOp = defineOperation({
  name: "assist_writing",
  title: "AI help in the composer",
  summary: "The composer's Write with AI, Shorten, Rewrite and Turn into a thread",
  description:
    "Writes, shortens or rewrites text, or makes a thread of it, in the owner's voice, for the composer's editor: nothing is saved. " +
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
    }),
    z.strictObject({ action: z.enum(["shorten", "rewrite"]), format: z.enum(["post", "tweet"]), text: Text }),
    z.strictObject({
      action: z.literal("thread"),
      text: Text,
      parts: z.coerce
        .number()
        .int()
        .min(2)
        .max(MAX_THREAD_PARTS + 1),
    }),
  ]),
  output: z.strictObject({ parts: z.array(z.string()) }),
  run: async (ctx, input) => ({ parts: await assist(ctx, input) }),
});
