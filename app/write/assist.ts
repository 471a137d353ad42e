"use server";
import { ownerForm } from "@/lib/transports/owner/form";
import { refusal } from "@/lib/transports/auth/form-errors";
import { db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { remaining } from "@/lib/domain/owner/allowances";
import { assistWritingOp } from "@/lib/operations/in-person/assist-writing";

// The composer's AI help (assist_writing, through the one door): the text comes back to the
// editor, never saved; the allowance left is returned with it, for the page to show.

export type Allowance = { posts: number; aiActions: number };
export type AssistState = { parts?: string[]; error?: string; left?: Allowance };

/** The allowance left this month, as the page shows it (not exported: every export here is an action). */
async function allowanceLeft(userId: string, plan: Parameters<typeof remaining>[2]): Promise<Allowance> {
  const r = await remaining(await db(), userId, plan, new Date());
  return { posts: r.posts_remaining, aiActions: r.ai_actions_remaining };
}

export async function assistAction(form: FormData): Promise<AssistState> {
  const expired = () => ({ error: "This page had expired: reload it (your text is kept) and press again." });
  return ownerForm<AssistState>(form, { page: "/write", purpose: "write", expired }, async (door) => {
    const fields = Object.fromEntries([...form.entries()].filter(([k, v]) => k !== "csrf" && typeof v === "string" && v !== ""));
    try {
      const { parts } = await door.run(assistWritingOp, fields, { key: undefined, shown: undefined });
      return { parts, left: await allowanceLeft(door.caller.userId, door.caller.plan) };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // A field problem in the words the form shows beside the field.
      const error = e.details?.length ? e.details.map((d) => d.message).join(". ") : refusal(e);
      return { error, left: await allowanceLeft(door.caller.userId, door.caller.plan) };
    }
  });
}
