import { config } from "@/lib/config";
import { mailServer } from "@/lib/mail-server";
import { CONFIRM_TTL_MS } from "@/lib/domain/email-verification";
import { isSigned, signed } from "./secret";

// Anyone can sign up with someone else's address. If its owner then opened the confirmation
// link, the password the stranger chose would open an account the owner believes is theirs
// (and whatever they connect to it). So the browser that signs up keeps a cookie naming the
// new account; the link, opened in any other browser, confirms the address only with a new
// password, which replaces the one chosen at sign-up. Opening the link changes nothing by
// itself (mail scanners open links): its page's button does.
export const CONFIRM_PATH = "/signup/confirm";
export const SIGN_UP_COOKIE = "contentio-signup";
export const CONFIRM_TTL_S = CONFIRM_TTL_MS / 1000;
export const signUpProof = (userId: string) => signed("sign-up", userId);
export const signedUpHere = (userId: string, cookie: string | undefined) => Boolean(cookie && isSigned(cookie, "sign-up", userId));

/** The e-mail with the link that confirms a new account's address (only with SMTP_URL). */
export async function sendConfirmationMail(to: string, token: string): Promise<void> {
  const c = config();
  if (!c.SMTP_URL) return;
  // The link is built from APP_URL only, never from the request that asked for it.
  const link = `${new URL(c.origin).origin}${CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
  const { default: nodemailer } = await import("nodemailer"); // loaded only when mail goes out
  await nodemailer.createTransport(mailServer(c.SMTP_URL)).sendMail({
    from: c.EMAIL_FROM,
    to,
    subject: "Confirm your e-mail address for Contentio",
    text: `Open this link to confirm your e-mail address and finish creating your Contentio account:\n\n${link}\n\nThe link works once, for 24 hours. If you did not sign up, ignore this e-mail.\n`,
    html: `<p>Open this link to confirm your e-mail address and finish creating your Contentio account:</p><p><a href="${link}">Confirm my e-mail address</a></p><p>The link works once, for 24 hours. If you did not sign up, ignore this e-mail.</p>`,
  });
}
