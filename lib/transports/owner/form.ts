import { redirect } from "next/navigation";
import type { z } from "zod";
import type { Caller } from "@/lib/domain/context";
import type { Operation } from "@/lib/operations/define";
import { AppError } from "@/lib/core/errors";
import { refusal } from "@/lib/transports/auth/form-errors";
import { checkCsrf, signedInUserId } from "@/lib/transports/auth/session";
import { formDoor, type FormDoor } from "./door";

export type { FormDoor };

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

async function signedIn(page: string): Promise<string> {
  const userId = await signedInUserId();
  if (!userId) redirect(`/signin?callbackUrl=${encodeURIComponent(page)}`);
  return userId;
}

/**
 * For the few forms that are not an operation (the profile's onboarding, an app's consent, a
 * network's sign-in, Check connection's reads): the user, once session and CSRF are checked.
 */
export async function ownerAction<T>(form: FormData, o: OwnerForm<T>, act: (userId: string) => Promise<T>): Promise<T> {
  const userId = await signedIn(o.page);
  if (!checkCsrf(userId, o.purpose, form.get("csrf"))) return o.expired();
  return act(userId);
}

/**
 * An owner's form that acts through the one door. The form's hidden `key` (made when the page
 * was drawn) makes a repeated submission answer as the first did, and its `shown` (the hash of
 * the content it showed) is what a publish, schedule or delete may act on.
 */
export async function ownerForm<T>(form: FormData, o: OwnerForm<T>, act: (door: FormDoor) => Promise<T>): Promise<T> {
  const door = await formDoor(await signedIn(o.page), form, o.purpose);
  return door ? act(door) : o.expired();
}

/**
 * ownerForm for a form that lands on another address when done: `act` gives that address, and
 * a refusal comes back as `{ error }` in the API's words (the form shows it beside itself).
 */
export async function ownerStep(
  form: FormData,
  o: OwnerForm<{ error: string }>,
  act: (door: FormDoor) => Promise<string>,
): Promise<string | { error: string }> {
  return ownerForm<string | { error: string }>(form, o, async (door) => {
    try {
      return await act(door);
    } catch (e) {
      if (e instanceof AppError) return { error: refusal(e) };
      throw e;
    }
  });
}
