import { randomBytes } from "node:crypto";
import { and, eq, isNull, like, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { authVerificationTokens, users } from "@/drizzle/schema";
import { hashToken } from "../apps/tokens";

// E-mail confirmation of a password sign-up (when the service can send e-mail). The pending
// confirmation is a row of the verification-token table, identifier "confirm-email:<user id>",
// holding only the SHA-256 of the link's token. While such a row exists and `email_verified`
// is null, the password does not sign in: the row, not the null, marks the account as
// unconfirmed, so accounts made before (the owner, `npm run admin`) keep working. An expired
// row keeps the account closed until a new link is asked for.
export const CONFIRM_TTL_MS = 24 * 3600_000;
const PREFIX = "confirm-email:";

/** A new link's token for this user (any earlier link stops working). */
export async function startEmailConfirmation(db: Db, userId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const identifier = PREFIX + userId;
  await db.transaction(async (tx) => {
    await tx.delete(authVerificationTokens).where(eq(authVerificationTokens.identifier, identifier));
    await tx.insert(authVerificationTokens).values({ identifier, token: hashToken(token), expires: new Date(now.getTime() + CONFIRM_TTL_MS) });
  });
  return token;
}

/** Whether this user's password sign-in waits for the e-mail to be confirmed. */
export async function awaitingConfirmation(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(authVerificationTokens, eq(authVerificationTokens.identifier, sql`${PREFIX} || ${users.id}::text`))
    .where(and(eq(users.id, userId), isNull(users.emailVerified)))
    .limit(1);
  return rows.length > 0;
}

export type ConfirmResult = { ok: true; email: string } | { ok: false; reason: "expired" | "unknown" };
export type PendingConfirmation = { ok: true; userId: string; email: string } | { ok: false; reason: "expired" | "unknown" };

const tokenMatch = (token: string) => and(eq(authVerificationTokens.token, hashToken(token)), like(authVerificationTokens.identifier, `${PREFIX}%`));

/** Whose confirmation a link's token is, without using it (what the link's page shows). */
export async function pendingConfirmation(db: Db, token: string, now = new Date()): Promise<PendingConfirmation> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { ok: false, reason: "unknown" };
  const [row] = await db
    .select({ identifier: authVerificationTokens.identifier, expires: authVerificationTokens.expires, email: users.email })
    .from(authVerificationTokens)
    .innerJoin(users, eq(authVerificationTokens.identifier, sql`${PREFIX} || ${users.id}::text`))
    .where(tokenMatch(token));
  if (!row) return { ok: false, reason: "unknown" };
  if (row.expires <= now) return { ok: false, reason: "expired" };
  return { ok: true, userId: row.identifier.slice(PREFIX.length), email: row.email };
}

/**
 * Uses a link: single use (the row is deleted as it is used), refused after 24 hours. The
 * account's password becomes `passwordHash`, chosen by whoever reads the mailbox: the one
 * given at sign-up may be a stranger's (lib/transports/auth/confirm-mail.ts).
 */
export async function confirmEmail(db: Db, token: string, now: Date, passwordHash: string): Promise<ConfirmResult> {
  const pending = await pendingConfirmation(db, token, now);
  if (!pending.ok) return pending; // an expired row stays: still unconfirmed
  return db.transaction(async (tx) => {
    // Deleting it is what uses it up: of two concurrent openings only one gets the row back.
    const used = await tx.delete(authVerificationTokens).where(tokenMatch(token)).returning();
    if (!used.length) return { ok: false, reason: "unknown" } as const;
    const [u] = await tx
      .update(users)
      .set({ emailVerified: now, updatedAt: now, passwordHash })
      .where(eq(users.id, pending.userId))
      .returning({ email: users.email });
    return u ? ({ ok: true, email: u.email } as const) : ({ ok: false, reason: "unknown" } as const);
  });
}

/**
 * The mailbox's owner signed in another way (an e-mailed sign-in link) into an account whose
 * password was never confirmed: that password was set by whoever signed up, who may not own
 * the address, so it is removed and the pending confirmation with it.
 */
export async function dropUnconfirmedPassword(db: Db, userId: string): Promise<boolean> {
  const pending = await db
    .delete(authVerificationTokens)
    .where(eq(authVerificationTokens.identifier, PREFIX + userId))
    .returning();
  if (!pending.length) return false;
  await db.update(users).set({ passwordHash: null, updatedAt: new Date() }).where(eq(users.id, userId));
  return true;
}

/** The user waiting for a confirmation under this e-mail, if any (for "send again"). */
export async function pendingUserByEmail(db: Db, email: string): Promise<{ id: string; email: string } | undefined> {
  const [u] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .innerJoin(authVerificationTokens, eq(authVerificationTokens.identifier, sql`${PREFIX} || ${users.id}::text`))
    .where(and(eq(users.email, email.trim().toLowerCase()), isNull(users.emailVerified)))
    .limit(1);
  return u;
}
