import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// A local SMTP server that keeps every message it is sent (plain SMTP, no TLS, no login),
// so that a test can read the e-mail a person would get.

export type Mail = { from: string; to: string[]; raw: string };

export type SmtpCapture = { url: string; mails: Mail[]; close: () => Promise<void> };

/** `host`: the address to listen on (loopback unless a test needs another machine's view of it). */
export async function startSmtpCapture(host = "127.0.0.1"): Promise<SmtpCapture> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (c: string) => (raw += c));
      stream.on("end", () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise((r) => server.close(() => r())) };
}

/** The message's text with quoted-printable soft breaks and escapes undone. */
export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
