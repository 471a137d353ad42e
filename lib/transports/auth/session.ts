import { redirect } from "next/navigation";
import { db } from "@/lib/adapters/db";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { auth } from "./index";
import { isSigned, signed } from "./secret";

export async function signedInUserId(): Promise<string | null> {
  const session = await auth();
  const id = (session?.user as { id?: string } | undefined)?.id;
  return id || null;
}

/** The signed-in owner's profile, or a redirect to sign-in that comes back to `returnTo`. */
export async function requireOwner(returnTo: string, opts: { complete?: boolean } = {}) {
  const id = await signedInUserId();
  const profile = id ? await getProfile(await db(), id) : undefined;
  if (!id || !profile) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  if (opts.complete && !profile.accountCompletedAt) redirect(`/onboarding?next=${encodeURIComponent(returnTo)}`);
  return { id, ...profile };
}

// CSRF: Server Actions already refuse a POST whose Origin differs from the host. On top of
// that every form carries a token bound to the signed-in user and the form's purpose, signed
// with the auth secret and valid for an hour, so a forged post also needs a secret value.
const TTL_MS = 3600_000;

export function csrfToken(userId: string, purpose: string, now = Date.now()): string {
  const ts = String(now);
  return `${ts}.${signed(userId, purpose, ts)}`;
}

export function checkCsrf(userId: string, purpose: string, token: unknown, now = Date.now()): boolean {
  if (typeof token !== "string") return false;
  const [ts, sig] = token.split(".");
  if (!ts || !sig || !(now - Number(ts) < TTL_MS && Number(ts) <= now)) return false;
  return isSigned(sig, userId, purpose, ts);
}
