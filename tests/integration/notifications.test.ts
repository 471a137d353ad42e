import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { draftTable } from "@/lib/domain/drafts/drafts";
import { noteAttempts } from "@/lib/domain/drafts/history";
import { notifyOwners, setNotificationSettings } from "@/lib/domain/owner/notifications";
import { ports } from "@/lib/adapters/ports";
import { authAccounts } from "@/drizzle/schema";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { configured, reconfigure } from "../helpers/env";
import { draft } from "../helpers/publishing";
import { decodeQuotedPrintable, startSmtpCapture, type SmtpCapture } from "../helpers/smtp-capture";

// E-mails to the owner through a real SMTP conversation (a capture server on loopback): one
// per event, only the kinds the owner kept on.
withDatabase();
let smtp: SmtpCapture;
let restore = () => {};

beforeAll(async () => {
  smtp = await startSmtpCapture();
  restore = reconfigure({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  restore();
  await smtp.close();
});

const text = (i: number) => decodeQuotedPrintable(smtp.mails[i].raw);
/** A publish outcome, as publishing records it: the draft's state and its history event. */
const setStatus = async (type: "post" | "tweet", id: string, status: "failed" | "unknown", reason: string) => {
  const t = draftTable(type);
  const [row] = await (await db()).update(t).set({ status, failureReason: reason }).where(eq(t.id, id)).returning({ userId: t.userId });
  await noteAttempts(await db(), [{ userId: row.userId, type, id, status, reason }]);
};

describe("e-mail notifications", () => {
  it("tells the owner once each: a failure, an unknown outcome, an approval request, a connection about to expire", async () => {
    const u = await makeUser({ publishing: true });
    const failed = await draft(u, "post", "Failing post");
    const unknown = await draft(u, "tweet", "Unknown tweet");
    const asked = await draft(u, "post", "Asked post");
    await setStatus("post", failed.id, "failed", "LinkedIn refused it as a duplicate.");
    await setStatus("tweet", unknown.id, "unknown", "the connection broke after sending");
    const approval = (await call("publish_now", { type: "post", id: asked.id }, { token: u.token })).body.error.confirmation;
    await (await db()).insert(authAccounts).values({
      userId: u.id,
      type: "oauth",
      provider: "linkedin",
      providerAccountId: "li-n",
      access_token: "a",
      expires_at: Math.floor(Date.now() / 1000) + 3 * 86400,
    });

    expect(await notifyOwners(await db(), ports())).toBe(4);
    expect(smtp.mails.map((m) => m.to)).toEqual([[u.email], [u.email], [u.email], [u.email]]);
    const all = smtp.mails.map((_, i) => text(i)).join("\n----\n");
    // No app credentials here: the drafts went to the sandbox, and the mails say so.
    expect(all).toContain(`was not published to the sandbox.`);
    expect(all).toContain(`was not confirmed in the sandbox`);
    for (const mail of all.split("\n----\n").filter((m) => !m.includes("Reconnect LinkedIn"))) expect(mail).not.toMatch(/\b(to|on) (LinkedIn|X)\b/);
    expect(all).toContain(`${config().origin}/content/post/${failed.id}`);
    expect(all).toContain(`${config().origin}/content/tweet/${unknown.id}`);
    expect(all).toContain("It may or may not be live");
    expect(all).toContain(`Approve or deny it here`);
    expect(all).toContain(approval.url);
    expect(all).toContain(`Reconnect LinkedIn in Settings > Connections`);
    expect(smtp.mails.every((m) => m.raw.includes("From: Contentio"))).toBe(true);

    // Once per event: another sweep sends nothing; a new failure of the same draft is news.
    expect(await notifyOwners(await db(), ports())).toBe(0);
    await setStatus("post", failed.id, "failed", "LinkedIn refused it again.");
    expect(await notifyOwners(await db(), ports())).toBe(1);

    // The owner turned approval requests off: a new one sends nothing; failures still do.
    await setNotificationSettings(await db(), u.id, { failed: true, unknown: true, approval: false, expiring: true });
    const other = await draft(u, "post", "Another ask");
    await call("delete_draft", { type: "post", id: other.id }, { token: u.token });
    expect(await notifyOwners(await db(), ports())).toBe(0);
    expect(smtp.mails.length).toBe(5);
  });

  it("sends nothing without SMTP_URL", async () => {
    const u = await makeUser();
    const d = await draft(u);
    await setStatus("post", d.id, "failed", "refused");
    expect(await configured({ SMTP_URL: undefined }, async () => notifyOwners(await db(), ports()))).toBe(0);
  });
});
