import { and, eq, sql } from "drizzle-orm";
import { verify } from "@node-rs/argon2";
import type { Db } from "@/lib/adapters/db";
import { authAccounts, users } from "@/drizzle/schema";
import { storePersonAccount } from "../accounts/accounts";

// An argon2 hash checked when the e-mail is unknown (or has no password), so that a wrong
// e-mail and a wrong password do the same work and take the same time: no account
// enumeration by timing. Written out rather than made on first use, which cost the first
// unknown e-mail a hash more; made with hash()'s defaults, as every stored password is
// (users.ts), so its check costs the same (tests/integration/sign-in-work.test.ts).
const DUMMY = "$argon2id$v=19$m=19456,t=2,p=1$PO4qVKWQdoJvHFu5DFCXgA$VYmL/7v0YzXXAK15ceqXGs3E5SMmfv5UXByypP8ga7Y";

/**
 * E-mail + password sign-in: the user's public fields, or null. One query and one argon2
 * check whether or not the e-mail has an account.
 */
export async function verifyPassword(db: Db, email: string, password: string) {
  const [u] = await db
    .select({ id: users.id, email: users.email, name: users.name, image: users.image, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  if (!u?.passwordHash) {
    await verify(DUMMY, password).catch(() => false);
    return null;
  }
  const ok = await verify(u.passwordHash, password).catch(() => false);
  return ok ? { id: u.id, email: u.email, name: u.name, image: u.image } : null;
}

type ProviderAccount = {
  provider: string;
  providerAccountId: string;
  access_token?: string;
  refresh_token?: string;
  expires_at?: number;
  token_type?: string;
  scope?: string;
  id_token?: string;
};

/**
 * After a LinkedIn or X sign-in: store the new tokens and the handle on the account row, and
 * the person's publishing account beside any others of that network (a further account adds,
 * never replaces; the same member again only renews). A refresh token is only replaced by a
 * new one, never wiped (LinkedIn often sends none).
 */
export async function storePlatformTokens(db: Db, account: ProviderAccount, profile: unknown) {
  const p = (profile ?? {}) as { data?: { username?: string; name?: string }; name?: string; email?: string };
  const handle = p.data?.username ? `@${p.data.username}` : (p.name ?? p.email ?? null);
  const [row] = await db
    .update(authAccounts)
    .set({
      access_token: account.access_token ?? null,
      refresh_token: account.refresh_token ? account.refresh_token : sql`${authAccounts.refresh_token}`,
      expires_at: account.expires_at ?? null,
      token_type: account.token_type ?? null,
      scope: account.scope ?? null,
      id_token: account.id_token ?? null,
      handle: handle ?? sql`${authAccounts.handle}`,
      status: "connected",
      updatedAt: new Date(),
    })
    .where(and(eq(authAccounts.provider, account.provider), eq(authAccounts.providerAccountId, account.providerAccountId)))
    .returning({ userId: authAccounts.userId });
  if (!row || (account.provider !== "linkedin" && account.provider !== "twitter")) return;
  await storePersonAccount(db, {
    userId: row.userId,
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    handle,
    name: p.data?.name ?? p.name ?? handle,
  });
}
