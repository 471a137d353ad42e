import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "./secret";

// An e-mailed sign-in link signs in only once its reader, on this service's own page, has
// confirmed the account it names. The link itself is a plain GET that anyone holding it can
// send any browser to: someone who asked for a link to their own account could otherwise sign
// a visitor in as themselves (login CSRF), and whatever the visitor then connected or wrote
// would land in their account. Opening the link shows the page; its button, a same-origin
// POST, leaves a cookie bound to the link's token, which next-auth's callback then requires.

export const LINK_CALLBACK = "/api/auth/callback/nodemailer";
export const LINK_PAGE = "/signin/link";
export const LINK_COOKIE = "contentio-link";

export const linkProof = (token: string) => createHmac("sha256", authSecret()).update(`email-link:${token}`).digest("base64url");

/** Whether the browser confirmed, on the link page, the link with this token. */
export function linkConfirmed(token: string, cookie: string | undefined): boolean {
  if (!token || !cookie) return false;
  const expected = Buffer.from(linkProof(token));
  const given = Buffer.from(cookie);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
