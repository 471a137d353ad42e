"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/transports/auth";
import { ownerAction } from "@/lib/transports/auth/owner-action";
import { db } from "@/lib/adapters/db";
import { setAppTrustsForms, setPublishingAllowed } from "@/lib/domain/accounts/connections";
import { disconnectAccount, setDefaultAccount } from "@/lib/domain/accounts/accounts";
import { KINDS, setNotificationSettings } from "@/lib/domain/owner/notifications";
import { revokeApp } from "@/lib/domain/apps/tokens";
import { checkConnections } from "@/lib/adapters/platforms/check";
import type { CheckState } from "@/components/connection-check";

const PAGE = "/settings/connections";

// Every form on the page carries one CSRF token ("connections").
const owner = (form: FormData) =>
  ownerAction(form, { page: PAGE, purpose: "connections", expired: () => redirect(`${PAGE}?error=expired`) }, async (userId) => userId);

export async function disconnectApp(form: FormData) {
  const userId = await owner(form);
  const ok = await revokeApp(await db(), userId, String(form.get("appId") ?? ""));
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${ok ? "disconnected" : "gone"}`);
}

export async function togglePublishing(form: FormData) {
  const userId = await owner(form);
  await setPublishingAllowed(await db(), userId, form.get("allow") === "on");
  revalidatePath(PAGE);
  redirect(PAGE);
}

export async function toggleAppTrust(form: FormData) {
  const userId = await owner(form);
  await setAppTrustsForms(await db(), userId, String(form.get("appId") ?? ""), form.get("trust") === "on");
  revalidatePath(PAGE);
  redirect(PAGE);
}

export async function connectPlatform(form: FormData) {
  await owner(form);
  const provider = form.get("provider") === "twitter" ? "twitter" : "linkedin";
  // Signed in already: next-auth links the platform account to this user, beside any others
  // (the account the network's sign-in is on decides which: another one is added, the same renewed).
  await signIn(provider, { redirectTo: PAGE });
}

export async function makeDefault(form: FormData) {
  const userId = await owner(form);
  const ok = await setDefaultAccount(await db(), userId, String(form.get("accountId") ?? ""));
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${ok ? "default" : "account-gone"}`);
}

export async function removeAccount(form: FormData) {
  const userId = await owner(form);
  const ok = await disconnectAccount(await db(), userId, String(form.get("accountId") ?? ""));
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${ok ? "account-disconnected" : "account-gone"}`);
}

export async function saveNotifications(form: FormData) {
  const userId = await owner(form);
  await setNotificationSettings(await db(), userId, Object.fromEntries(KINDS.map((k) => [k, form.get(k) === "on"])) as Record<(typeof KINDS)[number], boolean>);
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=notifications`);
}

export async function checkConnection(_prev: CheckState, form: FormData): Promise<CheckState> {
  const userId = await owner(form);
  return { checks: await checkConnections(await db(), userId) };
}
