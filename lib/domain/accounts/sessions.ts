import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { authAccounts } from "@/drizzle/schema";
import { networkNamed, type NetworkName } from "@/lib/domain/networks";
import type { OAuthNetworkSession, PasswordSession } from "../ports";
import { accountIdOf, listAccounts, storePersonAccount, type AccountView } from "./accounts";

// A session a network gave the owner in person (Bluesky: with an app password, or through
// atproto OAuth), kept as any connection is: its tokens in auth_accounts (an OAuth session's
// DPoP key beside them), with the account it posts as (publishing_accounts).

/** A network account belongs to one owner of this service: another owner's connection of it is refused, not taken over. */
const takenBySomeoneElse = (name: string) =>
  new AppError(
    "action_failed",
    `This ${name} account is connected to another user of this service.`,
    `It can post for one user only: disconnect it there first, or connect another ${name} account.`,
  );

/** Stores (or renews, for its owner) the connection `s` gave. Returns the account, as get_profile_context lists it. */
export async function keepSession(
  db: Db,
  userId: string,
  network: NetworkName,
  s: PasswordSession | OAuthNetworkSession,
  type: "app_password" | "oauth",
): Promise<AccountView> {
  const net = networkNamed(network);
  // Shown as the network shows it: @alice.bsky.social.
  const handle = `@${s.handle}`;
  const oauth = "dpop" in s ? s : null;
  const tokens = {
    type,
    access_token: s.access_token,
    refresh_token: s.refresh_token || null,
    expires_at: s.expires_at,
    handle,
    serviceUrl: s.serviceUrl,
    status: "connected" as const,
    refreshLockedUntil: null,
    scope: oauth?.scope ?? null,
    token_type: oauth?.token_type ?? null,
    dpop: oauth?.dpop ?? null,
  };
  const key = and(eq(authAccounts.provider, net.provider), eq(authAccounts.providerAccountId, s.accountId));
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(authAccounts)
      .values({ userId, provider: net.provider, providerAccountId: s.accountId, ...tokens })
      .onConflictDoNothing()
      .returning({ userId: authAccounts.userId });
    if (!added.length) {
      // Connected before: renewed for its owner, refused for anyone else.
      const [held] = await tx.select({ userId: authAccounts.userId }).from(authAccounts).where(key).for("update");
      if (held && held.userId !== userId) throw takenBySomeoneElse(net.name);
      await tx
        .update(authAccounts)
        .set({ ...tokens, updatedAt: new Date() })
        .where(key);
    }
    await storePersonAccount(tx, { userId, provider: net.provider, providerAccountId: s.accountId, handle, name: handle });
  });
  const id = accountIdOf(userId, net.platform, "person", s.accountId);
  const account = (await listAccounts(db, userId)).find((a) => a.account_id === id);
  if (!account) throw new AppError("internal_error", `The ${net.name} account was connected but could not be read back.`);
  return account;
}
