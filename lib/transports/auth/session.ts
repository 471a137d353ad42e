import { redirect } from "next/navigation";
import { db } from "@/lib/adapters/db";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ensureSandboxAccounts } from "@/lib/transports/owner/sandbox";
import { auth } from "./index";

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
  await ensureSandboxAccounts(await db(), id);
  return { id, ...profile };
}

export { checkCsrf, csrfToken } from "./csrf";
