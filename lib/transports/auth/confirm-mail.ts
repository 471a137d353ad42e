import { config } from "@/lib/core/config";
import { mailServer } from "@/lib/adapters/mail/server";

// Anyone can sign up with someone else's address. If its owner then opened the confirmation
// link, the password the stranger chose would open an account the owner believes is theirs
// (and whatever they connect to it). So the link confirms the address only with a password
// chosen on its page, by whoever reads the mailbox, which replaces the one given at sign-up.
// (A cookie marking the browser that signed up could spare its owner the typing, but a
// cookie can be planted in another browser: from a sibling domain, or over plain HTTP.)
// Opening the link changes nothing by itself (mail scanners open links): its page's button does.
export const CONFIRM_PATH = "/signup/confirm";

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
    text:
      `Open this link to confirm your e-mail address and finish creating your Contentio ` +
      `account:\n\n${link}\n\nThe link works once, for 24 hours. If you did not sign up, ignore this e-mail.\n`,
    html:
      `<p>Open this link to confirm your e-mail address and finish creating your Contentio account:</p><p><a href="${link}">Confirm ` +
      `my e-mail address</a></p><p>The link works once, for 24 hours. If you did not sign up, ignore this e-mail.</p>`,
  });
}
