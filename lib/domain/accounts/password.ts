import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError, invalid, type ErrorDetail } from "@/lib/core/errors";
import { authAccounts } from "@/drizzle/schema";
import { networkNamed, type NetworkName } from "@/lib/domain/networks";
import type { Platforms } from "../ports";
import { accountIdOf, listAccounts, storePersonAccount, type AccountView } from "./accounts";

// Connecting a network that takes the owner's handle and an app password (Bluesky), as the
// owner does in Settings > Connections or on the command line: never an app. The network's
// sign-in gives a session; its tokens are stored like any connection's (auth_accounts), with
// the account it posts as (publishing_accounts). The password is passed on once and kept
// nowhere: not stored, not logged, not in an error.

const MAX_PASSWORD = 200;

/** A network account belongs to one owner of this service: another owner's connection of it is refused, not taken over. */
const takenBySomeoneElse = (name: string) =>
  new AppError(
    "action_failed",
    `This ${name} account is connected to another user of this service.`,
    `It can post for one user only: disconnect it there first, or connect another ${name} account.`,
  );

/**
 * The owner connects (or renews) an account of `network` with its handle and an app
 * password. Returns the account, as get_profile_context lists it.
 */
export async function connectWithPassword(
  db: Db,
  userId: string,
  platforms: Pick<Platforms, "signIn">,
  input: { network: NetworkName; handle: string; password: string },
): Promise<AccountView> {
  const net = networkNamed(input.network);
  const problems: ErrorDetail[] = [];
  if (!input.handle.trim()) problems.push({ path: "handle", message: `Give the ${net.name} handle, e.g. alice.bsky.social` });
  if (!input.password) problems.push({ path: "password", message: `Give an app password made in ${net.name}'s settings` });
  else if (input.password.length > MAX_PASSWORD) problems.push({ path: "password", message: `An app password has at most ${MAX_PASSWORD} characters` });
  if (problems.length) throw invalid(problems);
  const s = await platforms.signIn(input.network, input.handle, input.password, userId);
  // Shown as the network shows it: @alice.bsky.social.
  const handle = `@${s.handle}`;
  const tokens = {
    access_token: s.access_token,
    refresh_token: s.refresh_token,
    expires_at: s.expires_at,
    handle,
    serviceUrl: s.serviceUrl,
    status: "connected" as const,
    refreshLockedUntil: null,
    scope: null,
  };
  const key = and(eq(authAccounts.provider, net.provider), eq(authAccounts.providerAccountId, s.accountId));
  await db.transaction(async (tx) => {
    const added = await tx
      .insert(authAccounts)
      .values({ userId, type: "app_password", provider: net.provider, providerAccountId: s.accountId, ...tokens })
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
