import { and, eq } from "drizzle-orm";
import { config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import { authAccounts } from "@/drizzle/schema";
import { connectionProblemOf } from "@/lib/domain/networks";
import { accountFor } from "@/lib/domain/accounts/accounts";
import { linkedin } from "./linkedin";
import type { Account } from "./tokens";
import { sandbox } from "./sandbox";
import { x } from "./x";
import { PublishError, type Platform, type PlatformName } from "@/lib/domain/networks/platform";

export { PublishError, platformOf, type Platform, type PlatformName } from "@/lib/domain/networks/platform";

/** Whether this deployment has app credentials for the real network (else: the sandbox). */
export function realConfigured(name: PlatformName): boolean {
  const c = config();
  return name === "pronet" ? !!(c.LINKEDIN_CLIENT_ID && c.LINKEDIN_CLIENT_SECRET) : !!(c.X_CLIENT_ID && c.X_CLIENT_SECRET);
}

/**
 * The connection a draft of `name` posts with: that of `accountId` (the user's, of that
 * network; else not found), or of the network's default account; with the account it posts
 * as. Null when the user has no account on the network.
 */
export async function connectedAccount(db: Db, userId: string, name: PlatformName, accountId?: string | null): Promise<Account | null> {
  const target = await accountFor(db, userId, name, accountId);
  const row = target && (await connectedConnection(db, target.provider, target.providerAccountId));
  return row ? { ...row, target } : null;
}

/**
 * Why this user cannot publish to `name` right now, or null. With no app credentials the
 * sandbox is always there; with them, the owner must have connected that network.
 */
export async function connectionProblem(db: Db, userId: string, name: PlatformName, known?: Account | null, now = new Date()): Promise<string | null> {
  if (!realConfigured(name)) return null;
  return connectionProblemOf(name, known !== undefined ? known : await connectedAccount(db, userId, name), now);
}

/** A stored connection by its network identity (no account it posts as). */
export async function connectedConnection(db: Db, provider: string, providerAccountId: string): Promise<Account | null> {
  const [row] = await db
    .select()
    .from(authAccounts)
    .where(and(eq(authAccounts.provider, provider), eq(authAccounts.providerAccountId, providerAccountId)));
  return row ?? null;
}

/** The platform a user's draft goes to: the real network when configured, else the sandbox. */
export async function platformFor(db: Db, userId: string, name: PlatformName, accountId?: string | null): Promise<Platform> {
  if (!realConfigured(name)) return sandbox(name, db);
  const acc = await connectedAccount(db, userId, name, accountId);
  const problem = await connectionProblem(db, userId, name, acc);
  if (!acc || problem) throw new PublishError("failed", problem ?? "No account is connected.");
  return name === "pronet" ? linkedin(acc, db) : x(acc, db);
}
