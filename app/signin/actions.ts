"use server";
import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { z } from "zod";
import { signIn } from "@/lib/auth";
import { safeReturnPath } from "@/lib/auth/return-path";
import { db } from "@/lib/db";
import { AccountError, createUser } from "@/lib/domain/accounts";

// Forms before sign-in carry no user-bound token; Server Actions refuse cross-origin posts
// (Origin must match the host), which is what protects them against login CSRF.

export type FormState = { error?: string; fields?: Record<string, string>; email?: string };

export async function signInWithPassword(_: FormState, form: FormData): Promise<FormState> {
  const email = String(form.get("email") ?? "");
  try {
    await signIn("credentials", {
      email,
      password: String(form.get("password") ?? ""),
      redirectTo: safeReturnPath(form.get("callbackUrl")),
    });
  } catch (e) {
    if (e instanceof AuthError) return { error: "Wrong e-mail or password. Check both and try again.", email };
    throw e; // the redirect after a successful sign-in
  }
  return {};
}

const SignUp = z.object({
  email: z.email("Enter a valid e-mail address.").max(254),
  password: z.string().min(10, "Use at least 10 characters.").max(200, "Use at most 200 characters."),
});

/** A new account starts without a plan (plan "none") and goes through onboarding. */
export async function signUp(_: FormState, form: FormData): Promise<FormState> {
  const raw = { email: String(form.get("email") ?? "").trim(), password: String(form.get("password") ?? "") };
  const parsed = SignUp.safeParse(raw);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const i of parsed.error.issues) fields[String(i.path[0])] ??= i.message;
    return { error: "Please fix the fields marked below.", fields, email: raw.email };
  }
  try {
    await createUser(await db(), { email: parsed.data.email, password: parsed.data.password, plan: "none", complete: false });
  } catch (e) {
    if (e instanceof AccountError) return { error: "An account with this e-mail already exists. Sign in instead.", email: raw.email };
    throw e;
  }
  const next = safeReturnPath(form.get("callbackUrl"));
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
  } else await signIn(provider, { redirectTo });
}
