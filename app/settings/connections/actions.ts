"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/auth";
import { checkCsrf, signedInUserId } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { disconnectPlatform, setAppTrustsForms, setPublishingAllowed } from "@/lib/domain/connections";
import { KINDS, setNotificationSettings } from "@/lib/domain/notifications";
import { revokeApp } from "@/lib/domain/tokens";

const PAGE = "/settings/connections";

// Each action re-reads the session and checks the form's CSRF token (bound to the user and
// the purpose) on top of the Server Actions' own Origin check.
async function owner(form: FormData, purpose: string): Promise<string> {
  const userId = await signedInUserId();
  if (!userId) redirect(`/signin?callbackUrl=${PAGE}`);
  if (!checkCsrf(userId, purpose, form.get("csrf"))) redirect(`${PAGE}?error=expired`);
  return userId;
}

export async function disconnectApp(form: FormData) {
  const userId = await owner(form, "connections");
  const ok = await revokeApp(await db(), userId, String(form.get("appId") ?? ""));
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${ok ? "disconnected" : "gone"}`);
}

export async function togglePublishing(form: FormData) {
  const userId = await owner(form, "connections");
  await setPublishingAllowed(await db(), userId, form.get("allow") === "on");
  revalidatePath(PAGE);
  redirect(PAGE);
}

export async function toggleAppTrust(form: FormData) {
  const userId = await owner(form, "connections");
  await setAppTrustsForms(await db(), userId, String(form.get("appId") ?? ""), form.get("trust") === "on");
  revalidatePath(PAGE);
  redirect(PAGE);
}

export async function connectPlatform(form: FormData) {
  await owner(form, "connections");
  const provider = form.get("provider") === "twitter" ? "twitter" : "linkedin";
  // Signed in already: next-auth links the platform account to this user.
  await signIn(provider, { redirectTo: PAGE });
}

export async function removePlatform(form: FormData) {
  const userId = await owner(form, "connections");
  await disconnectPlatform(await db(), userId, form.get("provider") === "twitter" ? "twitter" : "linkedin");
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=account-disconnected`);
}

export async function saveNotifications(form: FormData) {
  const userId = await owner(form, "connections");
  await setNotificationSettings(await db(), userId, Object.fromEntries(KINDS.map((k) => [k, form.get(k) === "on"])) as Record<(typeof KINDS)[number], boolean>);
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=notifications`);
}
