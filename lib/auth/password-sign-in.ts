import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { awaitingConfirmation } from "@/lib/domain/email-verification";
import { verifyPassword } from "@/lib/domain/owner-auth";
import { signInSucceeded, takeSignInAttempt } from "@/lib/ratelimit/sign-in";

export type PasswordSignIn =
  { ok: true; user: { id: string; email: string; name: string | null; image: string | null } } | { ok: false; reason: "throttled" | "wrong" | "unconfirmed" };

/**
 * E-mail + password sign-in, for every way in (the sign-in page's action and next-auth's own
 * callback endpoint): closed while the account or the address is throttled, whatever the
 * password; every attempt counts against both until it proves right; a right one for an address still waiting
 * for its confirmation link signs nobody in (said only to whoever knows the password).
 */
export async function passwordSignIn(db: Db, email: string, password: string, address: string): Promise<PasswordSignIn> {
  if (!(await takeSignInAttempt(email, address))) return { ok: false, reason: "throttled" };
  const user = await verifyPassword(db, email, password);
  if (!user) return { ok: false, reason: "wrong" };
  await signInSucceeded(email, address);
  if (config().SMTP_URL && (await awaitingConfirmation(db, user.id))) return { ok: false, reason: "unconfirmed" };
  return { ok: true, user };
}
