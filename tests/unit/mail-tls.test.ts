import os from "node:os";
import { describe, expect, it } from "vitest";
import { sendConfirmationMail } from "@/lib/transports/auth/confirm-mail";
import { mailServer } from "@/lib/adapters/mail/server";
import { configured } from "../helpers/env";
import { startSmtpCapture } from "../helpers/smtp-capture";

// Mail over smtp:// to another machine must not go out in the clear when the server's
// STARTTLS offer is missing (stripped by someone on the path): it carries the SMTP password
// and e-mailed sign-in links.
const external = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

describe("mail to another machine", () => {
  it("asks nodemailer to require STARTTLS unless the URL chose, or the relay is this machine", () => {
    expect(mailServer("smtp://user:pa%24s@mail.example.com:587")).toBe("smtp://user:pa%24s@mail.example.com:587?requireTLS=true");
    for (const kept of [
      "smtp://127.0.0.1:2525",
      "smtp://localhost:25",
      "smtps://user:pass@mail.example.com",
      "smtp://mail.example.com:25?requireTLS=false",
      "smtp://mail.example.com?ignoreTLS=true",
    ]) {
      expect(mailServer(kept)).toBe(kept);
    }
  });

  // Needs an address of this machine that is not loopback (one a relay elsewhere would have).
  it.skipIf(!external)("is not sent to a server that offers no STARTTLS, and is to a relay on this machine", async () => {
    const smtp = await startSmtpCapture("0.0.0.0"); // plain SMTP, STARTTLS disabled
    try {
      const port = new URL(smtp.url).port;
      await configured({ SMTP_URL: `smtp://${external}:${port}` }, async () => {
        await expect(sendConfirmationMail("lena@example.com", "token-1")).rejects.toThrow();
      });
      await configured({ SMTP_URL: `smtp://127.0.0.1:${port}` }, () => sendConfirmationMail("lena@example.com", "token-2"));
      expect(smtp.mails.map((m) => m.to)).toEqual([["lena@example.com"]]);
      expect(smtp.mails[0].raw).toContain("token-2");
    } finally {
      await smtp.close();
    }
  });
});
