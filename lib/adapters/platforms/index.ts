import { and, eq } from "drizzle-orm";
import { config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import { authAccounts } from "@/drizzle/schema";
import { connectionProblemOf, networkFor, networkNamed, type NetworkName } from "@/lib/domain/networks";
import { accountFor, isSandboxAccount } from "@/lib/domain/accounts/accounts";
import { linkedin } from "./linkedin";
import type { Account } from "./tokens";
import { sandbox } from "./sandbox";
import { x } from "./x";
import { bluesky } from "./bluesky";
import { endSession, signInWithAppPassword } from "./bluesky/session";
import { finishOAuth, revokeOAuth, startOAuth } from "./bluesky/oauth";
import { revokeAtNetwork } from "./revoke";
import { AppError } from "@/lib/core/errors";
import type { OAuthNetworkSession, PasswordSession, StoredConnection } from "@/lib/domain/ports";
import { PublishError, type Platform, type PlatformName } from "@/lib/domain/networks/platform";
import { CONNECTS_PER_OWNER, SIGN_IN_WINDOW_SECONDS, connectSucceeded, takeConnectAttempt } from "@/lib/adapters/ratelimit/sign-in";

export { PublishError, platformOf, type Platform, type PlatformName } from "@/lib/domain/networks/platform";

/** Each network's adapter, for a stored connection (with the account it posts as). */
const ADAPTERS: Record<NetworkName, (acc: Account, db: Db) => Platform> = { linkedin, x, bluesky };

/** How each network that takes the owner's own app password signs in with it. */
const PASSWORD_SIGN_IN: Partial<Record<NetworkName, (handle: string, password: string) => Promise<PasswordSession>>> = { bluesky: signInWithAppPassword };

/** Refused past the owner's attempts to connect an account in the window (before the network is asked). */
async function takeAttempt(name: NetworkName, owner: string, hint: string) {
  const wait = await takeConnectAttempt(owner);
  if (wait !== null)
    throw new AppError(
      "rate_limited",
      `Too many attempts to connect an account: ${CONNECTS_PER_OWNER} in ${SIGN_IN_WINDOW_SECONDS / 60} minutes. ` +
        `Nothing was sent to ${networkNamed(name).name}.`,
      `${hint} in ${Math.ceil(wait / 60)} minutes.`,
    );
}

/** The platforms port's signIn: the network's own sign-in with a handle and an app password. */
export async function passwordSignIn(name: NetworkName, handle: string, password: string, owner: string): Promise<PasswordSession> {
  const signIn = PASSWORD_SIGN_IN[name];
  if (!signIn) throw new AppError("action_failed", `${networkNamed(name).name} is connected by signing in with it, not with a password.`);
  await takeAttempt(name, owner, "Check the handle and the app password, and try again");
  const session = await signIn(handle, password);
  await connectSucceeded(owner);
  return session;
}

/** How each network that signs in through its own OAuth client (not next-auth's) starts and finishes it. */
const OAUTH_SIGN_IN: Partial<Record<NetworkName, { start: typeof startOAuth; finish: typeof finishOAuth }>> = {
  bluesky: { start: startOAuth, finish: finishOAuth },
};

const oauthOf = (name: NetworkName) => {
  const o = OAUTH_SIGN_IN[name];
  if (!o) throw new AppError("action_failed", `${networkNamed(name).name} is not connected this way.`);
  return o;
};

/** The platforms port's authorize: the address of the sign-in page the owner goes to. */
export async function authorizeStart(db: Db, name: NetworkName, handle: string, owner: string): Promise<string> {
  const o = oauthOf(name);
  await takeAttempt(name, owner, "Check the handle, and try again");
  return o.start(db, handle, owner);
}

/**
 * The platforms port's finishAuthorize: the owner back from the sign-in page. A connection the
 * new session replaces (the owner connecting the same account again) has its session ended on
 * the network, so that none is left behind there.
 */
export async function authorizeFinish<T>(
  db: Db,
  name: NetworkName,
  params: URLSearchParams,
  owner: string,
  keep: (s: OAuthNetworkSession) => Promise<T>,
): Promise<T> {
  const kept = await oauthOf(name).finish(db, params, owner, async (s) => {
    const before = await connectedConnection(db, networkNamed(name).provider, s.accountId);
    const out = await keep(s);
    if (before && before.access_token !== s.access_token) await signOut(before);
    return out;
  });
  await connectSucceeded(owner);
  return kept;
}

/**
 * The platforms port's signOut: a removed connection's session ended on its network: Bluesky's
 * OAuth tokens revoked or its app-password session deleted; LinkedIn's and X's tokens revoked.
 */
export async function signOut(c: StoredConnection): Promise<void> {
  if (c.provider !== "bluesky") return revokeAtNetwork(c);
  if (c.type === "oauth") await revokeOAuth(c);
  else if (c.serviceUrl && c.refresh_token) await endSession(c.serviceUrl, c.refresh_token);
}

/** The adapter of `name` for this connection. */
export const adapterFor = (name: NetworkName, acc: Account, db: Db): Platform => ADAPTERS[name](acc, db);

/**
 * Whether this deployment can publish to the real network: it has the network's app
 * credentials (else: the sandbox). A network signed in to with the owner's own app password
 * (Bluesky) needs none.
 */
export function realConfigured(name: NetworkName): boolean {
  const s = networkNamed(name).signIn;
  if (s.kind !== "oauth") return true;
  const c = config() as unknown as Record<string, unknown>;
  return s.vars.every((v) => !!c[v]);
}

/**
 * The connection a draft of `name` posts with: that of `accountId` (the user's, of a network
 * of that platform; else not found), or of the platform's default account; with the account it
 * posts as. Null when the user has no account for the platform.
 */
export async function connectedAccount(db: Db, userId: string, name: PlatformName, accountId?: string | null): Promise<Account | null> {
  const target = await accountFor(db, userId, name, accountId);
  const row = target && (await connectedConnection(db, target.provider, target.providerAccountId));
  return row ? { ...row, target } : null;
}

/**
 * Why this user cannot publish to `name` right now, or null. The network is the account's
 * (else the platform's first); without its app credentials the sandbox is always there; with
 * them, the owner must have connected that network.
 */
export async function connectionProblem(db: Db, userId: string, name: PlatformName, known?: Account | null, now = new Date()): Promise<string | null> {
  const acc = known !== undefined ? known : await connectedAccount(db, userId, name);
  const net = networkFor(name, acc);
  return realConfigured(net.id) ? realProblem(net, acc, now) : null;
}

/** Why a connection cannot publish to the configured network `net`: a sandbox account never can. */
function realProblem(net: ReturnType<typeof networkFor>, acc: Account | null, now: Date): string | null {
  if (isSandboxAccount(acc)) return `${net.name} is set up now, and this draft's account was the sandbox. Choose an account and schedule it again.`;
  return connectionProblemOf(net, acc, now);
}

/** A stored connection by its network identity (no account it posts as). */
export async function connectedConnection(db: Db, provider: string, providerAccountId: string): Promise<Account | null> {
  const [row] = await db
    .select()
    .from(authAccounts)
    .where(and(eq(authAccounts.provider, provider), eq(authAccounts.providerAccountId, providerAccountId)));
  return row ?? null;
}

/**
 * The platform a user's draft goes to: the network of its account (else the platform's first)
 * when that network can be published to, else the sandbox.
 */
export async function platformFor(db: Db, userId: string, name: PlatformName, accountId?: string | null): Promise<Platform> {
  const acc = await connectedAccount(db, userId, name, accountId);
  const net = networkFor(name, acc);
  if (!realConfigured(net.id)) return sandbox(name, db);
  const problem = realProblem(net, acc, new Date());
  if (!acc || problem) throw new PublishError("failed", problem ?? "No account is connected.");
  return adapterFor(net.id, acc, db);
}
