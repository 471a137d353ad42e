"use server";
import { revalidatePath } from "next/cache";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { AppError } from "@/lib/core/errors";
import { connectWithPassword } from "@/lib/domain/accounts/password";
import { ownerAction } from "@/lib/transports/auth/owner-action";
import { expired, refusal } from "@/lib/transports/auth/form-errors";
import type { ActionState } from "@/components/action-form";

const PAGE = "/settings/connections";

/** Connect Bluesky: the owner's handle and an app password (which goes nowhere but to the account's own PDS). */
export async function connectBluesky(_prev: ActionState, form: FormData): Promise<ActionState> {
  return ownerAction<ActionState>(form, { page: PAGE, purpose: "connections", expired }, async (userId) => {
    const input = { network: "bluesky" as const, handle: String(form.get("handle") ?? ""), password: String(form.get("password") ?? "") };
    try {
      await connectWithPassword(await db(), userId, ports().platforms, input);
    } catch (e) {
      if (e instanceof AppError) return { error: refusal(e) };
      throw e;
    }
    revalidatePath(PAGE);
    return null;
  });
}
