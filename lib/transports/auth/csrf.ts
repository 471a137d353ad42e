import { isSigned, signed } from "./secret";

// CSRF: Server Actions already refuse a POST whose Origin differs from the host. On top of
// that every form carries a token bound to the signed-in user and the form's purpose, signed
// with the auth secret and valid for an hour, so a forged post also needs a secret value.
const TTL_MS = 3600_000;

export function csrfToken(userId: string, purpose: string, now = Date.now()): string {
  const ts = String(now);
  return `${ts}.${signed(userId, purpose, ts)}`;
}

export function checkCsrf(userId: string, purpose: string, token: unknown, now = Date.now()): boolean {
  if (typeof token !== "string") return false;
  const [ts, sig] = token.split(".");
  if (!ts || !sig || !(now - Number(ts) < TTL_MS && Number(ts) <= now)) return false;
  return isSigned(sig, userId, purpose, ts);
}
