"use server";
import { z } from "zod";
import { ownerActionContext } from "@/lib/transports/auth/owner-action";
import { refusal } from "@/lib/transports/auth/form-errors";
import { db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { remaining } from "@/lib/domain/owner/allowances";
import { assist } from "@/lib/domain/generation/assist";
import { MAX_THREAD_PARTS } from "@/lib/domain/media/draft-media";

// The composer's AI help (assist.ts in the domain): the text comes back to the editor, never
// saved; the allowance left is returned with it, for the page to show.

export type Allowance = { posts: number; aiActions: number };
export type AssistState = { parts?: string[]; error?: string; left?: Allowance };

const Text = z.string().trim().min(1, "Write some text first").max(3000);
const Input = z.discriminatedUnion("action", [
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
]);

/** The allowance left this month, as the page shows it (not exported: every export here is an action). */
async function allowanceLeft(userId: string, plan: Parameters<typeof remaining>[2]): Promise<Allowance> {
  const r = await remaining(await db(), userId, plan, new Date());
  return { posts: r.posts_remaining, aiActions: r.ai_actions_remaining };
}

export async function assistAction(form: FormData): Promise<AssistState> {
  const owner = await ownerActionContext<AssistState>(form, {
    page: "/write",
    purpose: "write",
    expired: () => ({ error: "This page had expired: reload it (your text is kept) and press again." }),
  });
  if ("answer" in owner) return owner.answer;
  const { ctx } = owner;
  const fields = Object.fromEntries([...form.entries()].filter(([k, v]) => k !== "csrf" && typeof v === "string" && v !== ""));
  const parsed = Input.safeParse(fields);
  if (!parsed.success) return { error: parsed.error.issues.map((i) => i.message).join(". ") };
  try {
    const parts = await assist(ctx, parsed.data);
    return { parts, left: await allowanceLeft(ctx.caller.userId, ctx.caller.plan) };
  } catch (e) {
    if (e instanceof AppError) return { error: refusal(e), left: await allowanceLeft(ctx.caller.userId, ctx.caller.plan) };
    throw e;
  }
}
