import { randomBytes, randomInt } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordSignIn } from "@/lib/transports/auth/password-sign-in";
import { createUser } from "@/lib/domain/owner/users";
import {
  CONFIRM_TTL_MS,
  awaitingConfirmation,
  confirmEmail,
  dropUnconfirmedPassword,
  pendingConfirmation,
  startEmailConfirmation,
} from "@/lib/domain/owner/email-verification";
import { users } from "@/drizzle/schema";
import { withDatabase } from "../helpers/db";
import { configured, withConfig } from "../helpers/env";

// Confirmation of a new password account's e-mail address (with SMTP configured). The mail
// itself is checked in the browser test; here the rules behind the link.
const database = withDatabase();
const PASSWORD = "correct horse battery staple";
const db = () => database.current().db;
const someAddress = () => `198.20.${randomInt(256)}.${randomInt(1, 255)}`;

withConfig({ SMTP_URL: "smtp://127.0.0.1:9" }); // configured; nothing is sent from these tests

async function signUp() {
  const email = `new-${randomBytes(5).toString("hex")}@example.com`;
  const { id } = await createUser(db(), { email, password: PASSWORD, plan: "none", complete: false });
  return { id, email, token: await startEmailConfirmation(db(), id) };
}
// Confirming sets the password chosen on the link's page: here the one given at sign-up.
let samePassword: string;
beforeAll(async () => {
  samePassword = await hash(PASSWORD);
});
const confirm = (token: string, now = new Date()) => confirmEmail(db(), token, now, samePassword);
const signIn = (email: string) => passwordSignIn(db(), email, PASSWORD, someAddress()).then((r) => (r.ok ? "signed in" : r.reason));

describe("e-mail confirmation of a new password account", () => {
  it("keeps the password closed until the link is opened, then opens it; the link works once", async () => {
    const u = await signUp();
    expect(await signIn(u.email)).toBe("unconfirmed");
    expect(await confirm(u.token)).toEqual({ ok: true, email: u.email });
    const [row] = await db().select({ v: users.emailVerified }).from(users).where(eq(users.id, u.id));
    expect(row.v).toBeInstanceOf(Date);
    expect(await signIn(u.email)).toBe("signed in");
    expect(await confirm(u.token)).toEqual({ ok: false, reason: "unknown" });
  });

  it("refuses a link after 24 hours and keeps the account closed; a new link replaces the old one", async () => {
    const u = await signUp();
    expect(await confirm(u.token, new Date(Date.now() + CONFIRM_TTL_MS + 1000))).toEqual({ ok: false, reason: "expired" });
    expect(await awaitingConfirmation(db(), u.id)).toBe(true);
    expect(await signIn(u.email)).toBe("unconfirmed");
    const again = await startEmailConfirmation(db(), u.id);
    expect(await confirm(u.token)).toEqual({ ok: false, reason: "unknown" });
    expect((await confirm(again)).ok).toBe(true);
    expect(await signIn(u.email)).toBe("signed in");
  });

  it("names the link's account without using it; confirmed with a new password, only that one opens the account", async () => {
    const u = await signUp();
    expect(await pendingConfirmation(db(), u.token)).toEqual({ ok: true, userId: u.id, email: u.email });
    expect(await pendingConfirmation(db(), u.token, new Date(Date.now() + CONFIRM_TTL_MS + 1000))).toEqual({ ok: false, reason: "expired" });
    expect(await signIn(u.email)).toBe("unconfirmed"); // looking did not confirm
    expect(await confirmEmail(db(), u.token, new Date(), await hash("the mailbox owner's own"))).toEqual({ ok: true, email: u.email });
    expect(await signIn(u.email)).toBe("wrong"); // the password chosen at sign-up
    expect((await passwordSignIn(db(), u.email, "the mailbox owner's own", someAddress())).ok).toBe(true);
    expect(await pendingConfirmation(db(), u.token)).toEqual({ ok: false, reason: "unknown" });
  });

  it("refuses forged and malformed tokens without changing anything", async () => {
    const u = await signUp();
    for (const t of ["", "x", u.token.slice(0, -1) + (u.token.endsWith("A") ? "B" : "A"), `${u.token}%00`, "' or 1=1 --"]) {
      expect(await confirm(t)).toEqual({ ok: false, reason: "unknown" });
    }
    expect(await awaitingConfirmation(db(), u.id)).toBe(true);
  });

  it("leaves accounts made without a sign-up (the owner, the admin command) as they were", async () => {
    const email = `admin-made-${randomBytes(4).toString("hex")}@example.com`;
    const { id } = await createUser(db(), { email, password: PASSWORD });
    expect(await awaitingConfirmation(db(), id)).toBe(false);
    expect(await signIn(email)).toBe("signed in");
  });

  it("asks for nothing when no e-mail can be sent", async () => {
    const u = await signUp();
    expect(await configured({ SMTP_URL: undefined }, () => signIn(u.email))).toBe("signed in");
  });

  it("removes a password nobody confirmed when the mailbox's owner signs in with an e-mailed link", async () => {
    const u = await signUp();
    expect(await dropUnconfirmedPassword(db(), u.id)).toBe(true);
    expect(await passwordSignIn(db(), u.email, PASSWORD, someAddress())).toEqual({ ok: false, reason: "wrong" });
    expect(await confirm(u.token)).toEqual({ ok: false, reason: "unknown" });
    const confirmed = await signUp();
    await confirm(confirmed.token);
    expect(await dropUnconfirmedPassword(db(), confirmed.id)).toBe(false); // a confirmed password stays
    expect(await signIn(confirmed.email)).toBe("signed in");
  });
});
