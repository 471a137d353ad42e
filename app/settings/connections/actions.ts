"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/transports/auth";
import { ownerAction, ownerForm, type FormDoor } from "@/lib/transports/owner/form";
import { changeAccountOp } from "@/lib/operations/in-person/change-account";
import { changeAppOp } from "@/lib/operations/in-person/change-app";
import { createTokenOp } from "@/lib/operations/in-person/create-token";
import { setNotificationsOp } from "@/lib/operations/in-person/set-notifications";
import { setPublishingOp } from "@/lib/operations/in-person/set-publishing";
import { db } from "@/lib/adapters/db";
import { KINDS } from "@/lib/domain/owner/notifications";
import { PERSONAL_TOKEN_DAYS } from "@/lib/domain/apps/personal-tokens";
import { checkConnections } from "@/lib/adapters/platforms/check";
import type { CheckState } from "@/components/connection-check";
import type { TokenState } from "@/components/token-form";
import { AppError } from "@/lib/core/errors";
import { refusal } from "@/lib/transports/auth/form-errors";

// Settings > Connections: thin adapters from the page's forms to the one door, the owner in
// person as caller. Every form on the page carries one CSRF token ("connections").

const PAGE = "/settings/connections";
const expired = () => redirect(`${PAGE}?error=expired`);

/** Runs one change through the door; a refusal (an address of the wrong shape, say) is "it was not theirs": false. */
const change = (form: FormData, act: (door: FormDoor) => Promise<boolean>) =>
  ownerForm(form, { page: PAGE, purpose: "connections", expired }, async (door) => {
    try {
      return await act(door);
    } catch (e) {
      if (e instanceof AppError) return false;
      throw e;
    }
  });

export async function disconnectApp(form: FormData) {
  const ok = await change(form, async (door) => (await door.run(changeAppOp, { app_id: String(form.get("appId") ?? ""), action: "disconnect" })).changed);
  revalidatePath(PAGE);
  // A personal token is revoked, an app disconnected: the same act, in the words of each.
  const token = form.get("kind") === "token";
  redirect(`${PAGE}?done=${ok ? (token ? "revoked" : "disconnected") : "gone"}`);
}

/**
 * A personal API token, made as `npm run admin issue-token` makes one (the same domain
 * function). Shown once, in this answer only: never in the page's address, never stored but
 * hashed. A stale or forged form makes nothing.
 */
export async function createToken(_prev: TokenState, form: FormData): Promise<TokenState> {
  const name = String(form.get("name") ?? "").trim();
  const expiredForm = () => ({ error: "This page had expired, so no token was made. Reload it and try again." });
  return ownerForm<TokenState>(form, { page: PAGE, purpose: "connections", expired: expiredForm }, async (door) => {
    try {
      const t = await door.run(createTokenOp, { name, days: String(form.get("days") ?? PERSONAL_TOKEN_DAYS) });
      revalidatePath(PAGE);
      return { token: t.access_token, name, expiresAt: t.expires_at };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return { error: refusal(e), name };
    }
  });
}

export async function togglePublishing(form: FormData) {
  await change(form, async (door) => (await door.run(setPublishingOp, { allowed: form.get("allow") === "on" })).allowed);
  revalidatePath(PAGE);
  redirect(PAGE);
}

export async function toggleAppTrust(form: FormData) {
  const action = form.get("trust") === "on" ? "trust_forms" : "distrust_forms";
  await change(form, async (door) => (await door.run(changeAppOp, { app_id: String(form.get("appId") ?? ""), action })).changed);
  revalidatePath(PAGE);
  redirect(PAGE);
}

export async function connectPlatform(form: FormData) {
  await ownerAction(form, { page: PAGE, purpose: "connections", expired }, async () => null);
  const provider = form.get("provider") === "twitter" ? "twitter" : "linkedin";
  // Signed in already: next-auth links the platform account to this user, beside any others
  // (the account the network's sign-in is on decides which: another one is added, the same renewed).
  await signIn(provider, { redirectTo: PAGE });
}

/** Make default and Disconnect of one publishing account. */
async function changeAccount(form: FormData, action: "make_default" | "disconnect", done: string) {
  const changed = await change(form, async (door) => (await door.run(changeAccountOp, { account_id: String(form.get("accountId") ?? ""), action })).changed);
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${changed ? done : "account-gone"}`);
}

/** Monthly cap on X: dollars a calendar month for one X account; empty removes it. */
export async function setMonthlyCap(form: FormData) {
  const raw = String(form.get("cap") ?? "").trim();
  const dollars = raw === "" ? null : Number(raw);
  const ok =
    dollars === null || Number.isFinite(dollars)
      ? await change(
          form,
          async (door) =>
            (await door.run(changeAccountOp, { account_id: String(form.get("accountId") ?? ""), action: "set_monthly_cap", monthly_cap_usd: dollars })).changed,
        )
      : false;
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${ok ? "cap-set" : "cap-refused"}`);
}

export const makeDefault = async (form: FormData) => changeAccount(form, "make_default", "default");
export const removeAccount = async (form: FormData) => changeAccount(form, "disconnect", "account-disconnected");

export async function saveNotifications(form: FormData) {
  await change(form, async (door) => (await door.run(setNotificationsOp, Object.fromEntries(KINDS.map((k) => [k, form.get(k) === "on"]))), true));
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=notifications`);
}

/** Check connection: a read of the owner's connections (each network called once, harmlessly). */
export async function checkConnection(_prev: CheckState, form: FormData): Promise<CheckState> {
  const userId = await ownerAction(form, { page: PAGE, purpose: "connections", expired }, async (id) => id);
  return { checks: await checkConnections(await db(), userId) };
}
