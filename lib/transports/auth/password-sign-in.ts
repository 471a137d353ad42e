import { randomBytes } from "node:crypto";
import { config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import { awaitingConfirmation } from "@/lib/domain/owner/email-verification";
import { verifyPassword } from "@/lib/domain/owner/sign-in";
import { accountKey, signInSucceeded, takeSignInAttempt } from "@/lib/adapters/ratelimit/sign-in";
import { isSigned, signed } from "./secret";

export type PasswordSignIn =
  | { ok: true; user: { id: string; email: string; name: string | null; image: string | null }; device: string }
  | { ok: false; reason: "throttled" | "wrong" | "unconfirmed" };

/** The cookie by which a browser proves it signed in to an account before (DEVICE_COOKIE: id.proof). */
export const DEVICE_COOKIE = "contentio-device";

const deviceOf = (email: string, id: string) => ["sign-in-device", accountKey(email), id];

/** The browser's id when `token` proves an earlier sign-in to this account from it. */
function provenDevice(email: string, token: string | undefined): string | undefined {
  const [id, proof] = (token ?? "").split(".");
  return id && proof && id.length <= 64 && isSigned(proof, ...deviceOf(email, id)) ? id : undefined;
}

/**
 * E-mail + password sign-in, for every way in (the sign-in page's action and next-auth's own
 * callback endpoint): closed while the account (or, for a browser that proves an earlier
 * sign-in to it with `device`, that browser) or the address is throttled, whatever the
 * password; every attempt counts against both until it proves right; a right one for an
 * address still waiting for its confirmation link signs nobody in (said only to whoever knows
 * the password). A success hands back the browser's proof, to keep as DEVICE_COOKIE.
 */
export async function passwordSignIn(db: Db, email: string, password: string, address: string, device?: string): Promise<PasswordSignIn> {
  const known = provenDevice(email, device);
  if (!(await takeSignInAttempt(email, address, known))) return { ok: false, reason: "throttled" };
  const user = await verifyPassword(db, email, password);
  if (!user) return { ok: false, reason: "wrong" };
  await signInSucceeded(email, address, known);
  if (config().SMTP_URL && (await awaitingConfirmation(db, user.id))) return { ok: false, reason: "unconfirmed" };
  const id = known ?? randomBytes(16).toString("base64url");
  return { ok: true, user, device: `${id}.${signed(...deviceOf(email, id))}` };
}
