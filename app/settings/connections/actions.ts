"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { signIn } from "@/lib/transports/auth";
import { ownerAction, ownerForm } from "@/lib/transports/owner/form";
import { changeAccountOp } from "@/lib/operations/in-person/change-account";
import { db } from "@/lib/adapters/db";
import { setAppTrustsForms, setPublishingAllowed } from "@/lib/domain/accounts/connections";
import { KINDS, setNotificationSettings } from "@/lib/domain/owner/notifications";
import { revokeApp } from "@/lib/domain/apps/tokens";
import { checkConnections } from "@/lib/adapters/platforms/check";
import type { CheckState } from "@/components/connection-check";
import type { TokenState } from "@/components/token-form";
import { PERSONAL_TOKEN_CHOICES, PERSONAL_TOKEN_DAYS, issuePersonalToken } from "@/lib/domain/apps/personal-tokens";
import { AppError, invalid, type ErrorDetail } from "@/lib/core/errors";
import { refusal } from "@/lib/transports/auth/form-errors";
import { config } from "@/lib/core/config";

const PAGE = "/settings/connections";

// Every form on the page carries one CSRF token ("connections").
const owner = (form: FormData) =>
  ownerAction(form, { page: PAGE, purpose: "connections", expired: () => redirect(`${PAGE}?error=expired`) }, async (userId) => userId);

export async function disconnectApp(form: FormData) {
  const userId = await owner(form);
  const ok = await revokeApp(await db(), userId, String(form.get("appId") ?? ""));
  revalidatePath(PAGE);
  // A personal token is revoked, an app disconnected: the same act, in the words of each.
  const token = form.get("kind") === "token";
  redirect(`${PAGE}?done=${ok ? (token ? "revoked" : "disconnected") : "gone"}`);
}

const NAME_MAX = 100;

/**
 * A personal API token, made as `npm run admin issue-token` makes one (the same domain
 * function). Shown once, in this answer only: never in the page's address, never stored but
 * hashed. A stale or forged form makes nothing.
 */
export async function createToken(_prev: TokenState, form: FormData): Promise<TokenState> {
  return ownerAction<TokenState>(
    form,
    { page: PAGE, purpose: "connections", expired: () => ({ error: "This page had expired, so no token was made. Reload it and try again." }) },
    async (userId) => {
      const name = String(form.get("name") ?? "").trim();
      const days = Number(form.get("days") ?? PERSONAL_TOKEN_DAYS);
      const problems: ErrorDetail[] = [];
      if (!name) problems.push({ path: "name", message: "Name the token after what will use it, e.g. “Publishing script”" });
      else if (name.length > NAME_MAX) problems.push({ path: "name", message: `Use at most ${NAME_MAX} characters for the name` });
      if (!(PERSONAL_TOKEN_CHOICES as readonly number[]).includes(days))
        problems.push({ path: "days", message: "Choose how long the token lasts from the list" });
      if (problems.length) return { error: refusal(invalid(problems)), name };
      const { baseUrl, mcpUrl } = config();
      const t = await issuePersonalToken(await db(), userId, { appName: name, expiresIn: days * 86400, audience: [baseUrl, mcpUrl] });
      revalidatePath(PAGE);
      return { token: t.access_token, name, expiresAt: t.expires_at.toISOString() };
    },
  );
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

/** Make default and Disconnect of one publishing account, through the one door as the owner in person. */
async function changeAccount(form: FormData, action: "make_default" | "disconnect", done: string) {
  const changed = await ownerForm(form, { page: PAGE, purpose: "connections", expired: () => redirect(`${PAGE}?error=expired`) }, async (door) => {
    try {
      return (await door.run(changeAccountOp, { account_id: String(form.get("accountId") ?? ""), action })).changed;
    } catch (e) {
      // An address of the wrong shape is an account that is not theirs.
      if (e instanceof AppError) return false;
      throw e;
    }
  });
  revalidatePath(PAGE);
  redirect(`${PAGE}?done=${changed ? done : "account-gone"}`);
}

export const makeDefault = async (form: FormData) => changeAccount(form, "make_default", "default");
export const removeAccount = async (form: FormData) => changeAccount(form, "disconnect", "account-disconnected");

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
