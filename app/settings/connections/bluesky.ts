"use server";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/core/errors";
import { connectAccountOp } from "@/lib/operations/in-person/connect-account";
import { ownerForm } from "@/lib/transports/owner/form";
import { expired, refusal } from "@/lib/transports/auth/form-errors";
import type { ActionState } from "@/components/action-form";

const PAGE = "/settings/connections";

/** Connect Bluesky, through the one door: the owner's handle and an app password (which goes nowhere but to the account's own PDS). */
export async function connectBluesky(_prev: ActionState, form: FormData): Promise<ActionState> {
  return ownerForm<ActionState>(form, { page: PAGE, purpose: "connections", expired }, async (door) => {
    const input = { network: "bluesky", handle: String(form.get("handle") ?? ""), password: String(form.get("password") ?? "") };
    try {
      await door.run(connectAccountOp, input, { key: undefined });
    } catch (e) {
      if (e instanceof AppError) return { error: refusal(e) };
      throw e;
    }
    revalidatePath(PAGE);
    return null;
  });
}
