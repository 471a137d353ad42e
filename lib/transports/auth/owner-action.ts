import { redirect } from "next/navigation";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import type { Ctx } from "@/lib/domain/context";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerContext } from "@/lib/domain/owner/owner";
import { checkCsrf, signedInUserId } from "./session";

// The preamble of every form action on the owner's pages, in one place: the session is read
// again (a signed-out visitor goes to sign-in and comes back to `page`), and the form's CSRF
// token must be this user's for this `purpose` (on top of Server Actions' Origin check).

export type OwnerForm<T> = {
  /** The page the form is on: where sign-in comes back to. */
  page: string;
  /** What the form's CSRF token was issued for (see csrfToken). */
  purpose: string;
  /** The answer when the token is missing, forged or older than an hour. */
  expired: () => T;
};

export async function ownerAction<T>(form: FormData, o: OwnerForm<T>, act: (userId: string) => Promise<T>): Promise<T> {
  const userId = await signedInUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(o.page)}`);
  if (!checkCsrf(userId, o.purpose, form.get("csrf"))) return o.expired();
  return act(userId);
}

/**
 * ownerAction for a form that acts on the owner's content: gives the domain's context with the
 * owner in person as caller (their own page is the confirmation), or the form's answer.
 */
export async function ownerActionContext<T>(form: FormData, o: OwnerForm<T>): Promise<{ ctx: Ctx } | { answer: T }> {
  return ownerAction<{ ctx: Ctx } | { answer: T }>(form, { ...o, expired: () => ({ answer: o.expired() }) }, async (userId) => {
    const profile = await getProfile(await db(), userId);
    if (!profile) redirect("/signin");
    return { ctx: ownerContext(await db(), { id: userId, ...profile }, ports()) };
  });
}
