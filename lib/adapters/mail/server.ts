import { originIsLoopback } from "@/lib/core/address-policy.mjs";

/**
 * SMTP_URL as the mail transports get it. Over `smtp://` to another machine, STARTTLS is
 * required (`requireTLS=true`): nodemailer otherwise upgrades only when the server offers it,
 * so anyone on the path could strip the offer and read the password and the mails, e-mailed
 * sign-in links among them. A URL that says `requireTLS` or `ignoreTLS` itself keeps its
 * choice, `smtps://` is TLS from the start, and a relay on this machine (loopback) is left as is.
 */
export function mailServer(url: string): string {
  const u = new URL(url);
  if (u.protocol !== "smtp:" || originIsLoopback(url) || u.searchParams.has("requireTLS") || u.searchParams.has("ignoreTLS")) return url;
  u.searchParams.set("requireTLS", "true");
  return u.toString();
}
