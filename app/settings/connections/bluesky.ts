"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { startOAuthConnect } from "@/lib/domain/accounts/oauth";
import { connectAccountOp } from "@/lib/operations/in-person/connect-account";
import { ownerAction, ownerForm } from "@/lib/transports/owner/form";
import { expired, refusal } from "@/lib/transports/auth/form-errors";
import type { ActionState } from "@/components/action-form";

const PAGE = "/settings/connections";

/**
 * Connect Bluesky with atproto OAuth: the owner's handle names the account, and the owner goes
 * to its server's sign-in page (a network's sign-in, like LinkedIn's and X's: not an operation).
 * They come back to the callback page (bluesky/callback), which only they can finish.
 */
export async function startBlueskySignIn(_prev: ActionState, form: FormData): Promise<ActionState> {
  const url = await ownerAction<ActionState | string>(form, { page: PAGE, purpose: "connections", expired }, async (userId) => {
    try {
      return await startOAuthConnect(await db(), userId, ports().platforms, "bluesky", String(form.get("handle") ?? ""));
    } catch (e) {
      if (e instanceof AppError) return { error: refusal(e) };
      throw e;
    }
  });
  if (typeof url === "string") redirect(url);
  return url;
}

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
