"use server";
import { hash } from "@node-rs/argon2";
import { redirect } from "next/navigation";
import { CONFIRM_PATH } from "@/lib/transports/auth/confirm-mail";
import { db } from "@/lib/adapters/db";
import { confirmEmail, pendingConfirmation } from "@/lib/domain/owner/email-verification";
import { NewPassword } from "@/lib/transports/auth/password-rules";

// The confirmation page's button (a Server Action: cross-origin posts are refused). It
// confirms the address with the password chosen here, which replaces the one given at sign-up
// (lib/transports/auth/confirm-mail.ts says why).
export async function confirmSignUp(form: FormData) {
  const token = String(form.get("token") ?? "");
  const d = await db();
  const pending = await pendingConfirmation(d, token);
  if (!pending.ok) redirect(`/signin?confirm=${pending.reason === "expired" ? "expired" : "invalid"}`);
  const password = NewPassword.safeParse(String(form.get("password") ?? ""));
  if (!password.success) redirect(`${CONFIRM_PATH}?${new URLSearchParams({ token, error: "password" })}`);
  const result = await confirmEmail(d, token, new Date(), await hash(password.data));
  redirect(`/signin?confirm=${result.ok ? "done" : result.reason === "expired" ? "expired" : "invalid"}`);
}
