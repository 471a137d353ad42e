import type { Transporter } from "nodemailer";
import { config } from "@/lib/core/config";
import type { Mail, Mailer } from "@/lib/domain/ports";
import { mailServer } from "./server";

// The mail port's adapter: SMTP to SMTP_URL through nodemailer, from EMAIL_FROM. nodemailer is
// loaded only when mail goes out: the scheduler's passes reach this port in every process, and
// most never send any.

// Kept for the server it was made for (tests change SMTP_URL between files).
let transport: { url: string; transport: Transporter } | undefined;

async function send(m: Mail) {
  const { default: nodemailer } = await import("nodemailer");
  const url = config().SMTP_URL!;
  if (transport?.url !== url) transport = { url, transport: nodemailer.createTransport(mailServer(url)) };
  await transport.transport.sendMail({ from: config().EMAIL_FROM, ...m });
}

/** Mail to the owner over SMTP, configured when SMTP_URL is set (read when asked: tests change it). */
export function smtpMailer(): Mailer {
  return { configured: () => !!config().SMTP_URL, send };
}
