import { redirect } from "next/navigation";
import type { z } from "zod";
import type { Caller } from "@/lib/domain/context";
import type { Operation } from "@/lib/operations/define";
import { AppError } from "@/lib/core/errors";
import { refusal } from "@/lib/transports/auth/form-errors";
import { checkCsrf, signedInUserId } from "@/lib/transports/auth/session";
import { formCaller, ownerRun, type OwnerCall } from "./door";

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

/** What a form's action is handed: the owner as caller, and the one door with the form's key and shown hash. */
export type FormDoor = {
  caller: Caller;
  /** Runs `op` as the owner, with the form's `key` and `shown` fields unless `o` says otherwise. */
  run<O extends Operation>(op: O, input: unknown, o?: OwnerCall): Promise<z.output<O["output"]>>;
};

const field = (form: FormData, k: string) => {
  const v = form.get(k);
  return typeof v === "string" ? v : undefined;
};

/**
 * An owner's form that acts through the one door. The form's hidden `key` (made when the page
 * was drawn) makes a repeated submission answer as the first did, and its `shown` (the hash of
 * the content it showed) is what a publish, schedule or delete may act on.
 */
export async function ownerForm<T>(form: FormData, o: OwnerForm<T>, act: (door: FormDoor) => Promise<T>): Promise<T> {
  const userId = await signedIn(o.page);
  const caller = await formCaller(userId, form, o.purpose);
  if (!caller) return o.expired();
  const sent: OwnerCall = { key: field(form, "key"), shown: field(form, "shown") };
  return act({ caller, run: (op, input, c) => ownerRun(caller, op, () => input, { ...sent, ...c }) });
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
