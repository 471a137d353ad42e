"use server";
import { AuthError, CredentialsSignin } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { signIn, signOut } from "@/lib/transports/auth";
import { sendConfirmationMail } from "@/lib/transports/auth/confirm-mail";
import { NewPassword } from "@/lib/transports/auth/password-rules";
import { config } from "@/lib/core/config";
import { pendingUserByEmail, startEmailConfirmation } from "@/lib/domain/owner/email-verification";
import { clientAddress } from "@/lib/transports/http/client-address";
import { takeSignInAttempt } from "@/lib/adapters/ratelimit/sign-in";
import { fieldErrors } from "@/lib/transports/auth/form-errors";
import { DEFAULT_RETURN_PATH, safeReturnPath } from "@/lib/transports/auth/return-path";
import { awaitsOnboarding } from "@/lib/domain/owner/onboarding";
import { db } from "@/lib/adapters/db";
import { AccountError, createUser } from "@/lib/domain/owner/users";

// Forms before sign-in carry no user-bound token; Server Actions refuse cross-origin posts
// (Origin must match the host), which is what protects them against login CSRF.

export type FormState = { error?: string; fields?: Record<string, string>; email?: string; unconfirmed?: boolean };

const THROTTLED_MESSAGE = "Too many failed sign-in attempts for this account or from your network. Wait 15 minutes, then try again.";
const SIGN_UP_THROTTLED = "Too many attempts from your network or for this address. Wait 15 minutes, then try again.";
const UNCONFIRMED_MESSAGE = "Confirm your e-mail address first: open the link we e-mailed you when you signed up.";

export async function signInWithPassword(_: FormState, form: FormData): Promise<FormState> {
  const email = String(form.get("email") ?? "");
  let redirectTo = safeReturnPath(form.get("callbackUrl"));
  // The owner the first start made lands on onboarding (then back home) until they save a
  // profile; a sign-in on its way to a page (an approval, consent) still goes there. Used
  // only after the password is right: a wrong one is refused the same either way.
  if (redirectTo === DEFAULT_RETURN_PATH && (await awaitsOnboarding(await db(), email))) redirectTo = `/onboarding?next=${encodeURIComponent(redirectTo)}`;
  try {
    await signIn("credentials", {
      email,
      password: String(form.get("password") ?? ""),
      redirectTo,
    });
  } catch (e) {
    if (e instanceof CredentialsSignin && e.code === "throttled") return { error: THROTTLED_MESSAGE, email };
    if (e instanceof CredentialsSignin && e.code === "unconfirmed") return { error: UNCONFIRMED_MESSAGE, email, unconfirmed: true };
    if (e instanceof AuthError) return { error: "Wrong e-mail or password. Check both and try again.", email };
    throw e; // the redirect after a successful sign-in
  }
  return {};
}

/**
 * "Send the link again" for an account waiting for its e-mail confirmation. The answer is the
 * same whether or not such an account exists, and each request counts like a failed sign-in
 * (for the account and the address), so it can neither probe for accounts nor flood a mailbox.
 */
export async function resendConfirmation(form: FormData) {
  const email = String(form.get("email") ?? "")
    .trim()
    .toLowerCase();
  const address = clientAddress(await headers());
  if (!email || !config().SMTP_URL) redirect("/signin");
  if (!(await takeSignInAttempt(email, address))) redirect("/signin?confirm=throttled");
  const d = await db();
  const user = await pendingUserByEmail(d, email);
  if (user) await sendConfirmationMail(user.email, await startEmailConfirmation(d, user.id));
  redirect("/signin?confirm=sent");
}

const SignUp = z.object({
  email: z.email("Enter a valid e-mail address.").max(254),
  password: NewPassword,
});

/** A new account starts without a plan (plan "none") and goes through onboarding. */
export async function signUp(_: FormState, form: FormData): Promise<FormState> {
  const raw = { email: String(form.get("email") ?? "").trim(), password: String(form.get("password") ?? "") };
  const parsed = SignUp.safeParse(raw);
  if (!parsed.success) return { error: "Please fix the fields marked below.", fields: fieldErrors(parsed.error), email: raw.email };
  // A sign-up hashes a password (CPU) and says whether an address has an account: counted
  // like a failed sign-in, so a script can do neither in bulk.
  if (!(await takeSignInAttempt(parsed.data.email, clientAddress(await headers())))) return { error: SIGN_UP_THROTTLED, email: raw.email };
  let userId: string;
  try {
    userId = (await createUser(await db(), { email: parsed.data.email, password: parsed.data.password, plan: "none", complete: false })).id;
  } catch (e) {
    if (e instanceof AccountError) return { error: "An account with this e-mail already exists. Sign in instead.", email: raw.email };
    throw e;
  }
  const next = safeReturnPath(form.get("callbackUrl"));
  // With e-mail configured, the address is proven before the password opens the account.
  if (config().SMTP_URL) {
    const d = await db();
    try {
      await sendConfirmationMail(parsed.data.email, await startEmailConfirmation(d, userId));
    } catch {
      return { error: "Your account was created, but the confirmation e-mail could not be sent. Sign in to ask for it again.", email: raw.email };
    }
    redirect(`/signin?confirm=sent&callbackUrl=${encodeURIComponent(next)}`);
  }
  await signIn("credentials", { ...parsed.data, redirectTo: `/onboarding?next=${encodeURIComponent(next)}` });
  return {};
}

export async function signInWith(provider: "linkedin" | "twitter" | "nodemailer", form: FormData) {
  const redirectTo = safeReturnPath(form.get("callbackUrl"));
  if (provider === "nodemailer") {
    // next-auth would send the browser on to /api/auth/verify-request, which the client router
    // then shows under that address: go straight to the sign-in page's "check your e-mail".
    const to = await signIn(provider, { email: String(form.get("email") ?? ""), redirectTo, redirect: false });
    redirect(String(to).includes("/verify-request") ? "/signin?sent=1" : String(to));
  } else {
    // This page signs in as whoever that LinkedIn or X account belongs to. Signed in already,
    // next-auth would instead link an account nobody has yet to the current session's user:
    // a session someone left in this browser would get the next person's account for
    // publishing. Connecting an account to yourself is Settings > Connections' button.
    await signOut({ redirect: false, redirectTo }); // its return path is kept for the sign-in
    await signIn(provider, { redirectTo });
  }
}
