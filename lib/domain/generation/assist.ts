import type { DraftType } from "@/lib/domain/networks";
import type { Ctx } from "../context";
import { withDebit } from "../owner/allowances";
import { networkOfAccount } from "../drafts/fit";
import { voiceOf } from "./generation";

// The composer's AI help: text for the editor, never saved (the owner saves what they keep).
// Charged as generate_post / generate_tweet are, one generation a press, with the same
// refund when the model fails; the format's voice and best posts are the same too. Written
// for the network of the account chosen in the composer (else the default's): a tweet for a
// Bluesky account within Bluesky's limit, not X's.

/** `account_id`: the account chosen in the composer for this format; absent, its default. */
export type AssistInput = (
  | { action: "write"; format: DraftType; topic: string; instructions?: string }
  | { action: "shorten" | "rewrite"; format: DraftType; text: string }
  | { action: "thread"; text: string; parts: number }
) & { account_id?: string };

/** The text (or a thread's parts) the model wrote for the composer. */
export async function assist(ctx: Ctx, input: AssistInput): Promise<string[]> {
  const format = input.action === "thread" ? "tweet" : input.format;
  const network = await networkOfAccount(ctx.db, ctx.caller.userId, format, input.account_id); // a foreign account: not found, for free
  const voice = await voiceOf(ctx, format);
  const work = async () => {
    switch (input.action) {
      case "write":
        return [await ctx.ports.model.write({ format, network, voice, topic: input.topic, instructions: input.instructions }, ctx.signal)];
      case "thread":
        return ctx.ports.model.writeThread({ format: "tweet", network, voice, sourcePost: input.text, parts: input.parts }, ctx.signal);
      default:
        return [await ctx.ports.model.write({ format, network, voice, sourcePost: input.text, edit: input.action }, ctx.signal)];
    }
  };
  // The offline starter is a template, not a model's work: the owner's plan pays nothing for it.
  if (ctx.ports.model.offline) return work();
  return withDebit(ctx, format === "post" ? "generate_post" : "generate_tweet", work);
}
