"use server";
import { hash } from "@node-rs/argon2";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { CONFIRM_PATH, SIGN_UP_COOKIE, signedUpHere } from "@/lib/auth/confirm-mail";
import { db } from "@/lib/db";
import { confirmEmail, pendingConfirmation } from "@/lib/domain/email-verification";
import { NewPassword } from "@/lib/auth/password-rules";

// The confirmation page's button (a Server Action: cross-origin posts are refused). In the
// browser that signed up, it confirms the address; anywhere else it needs a new password,
// which replaces the one chosen at sign-up (lib/auth/confirm-mail.ts says why).
export async function confirmSignUp(form: FormData) {
  const token = String(form.get("token") ?? "");
  const d = await db();
  const pending = await pendingConfirmation(d, token);
  if (!pending.ok) redirect(`/signin?confirm=${pending.reason === "expired" ? "expired" : "invalid"}`);
  const jar = await cookies();
  let passwordHash: string | undefined;
  if (!signedUpHere(pending.userId, jar.get(SIGN_UP_COOKIE)?.value)) {
    const password = NewPassword.safeParse(String(form.get("password") ?? ""));
    if (!password.success) redirect(`${CONFIRM_PATH}?${new URLSearchParams({ token, error: "password" })}`);
    passwordHash = await hash(password.data);
  }
  const result = await confirmEmail(d, token, new Date(), { passwordHash });
  if (result.ok) jar.delete({ name: SIGN_UP_COOKIE, path: CONFIRM_PATH });
  redirect(`/signin?confirm=${result.ok ? "done" : result.reason === "expired" ? "expired" : "invalid"}`);
}
