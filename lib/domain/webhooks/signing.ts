import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

// Standard Webhooks signatures, made by the reference library so receivers can verify with
// any of its implementations. A secret is stored as its whsec_ string: that is what signs.

/** A new endpoint secret: whsec_ + 256 random bits, base64 (the libraries' format). */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/**
 * The webhook-signature header: one `v1,<base64>` entry per secret, space-separated. During
 * a rotation's overlap both the new and the previous secret sign, so a receiver that still
 * holds the old one keeps verifying.
 */
export function signatureHeader(secrets: string[], msgId: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(msgId, at, body)).join(" ");
}

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
export function signingSecrets(e: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null }, now: Date): string[] {
  const out = [e.secret];
  if (e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt.getTime() > now.getTime()) out.push(e.previousSecret);
  return out;
}
