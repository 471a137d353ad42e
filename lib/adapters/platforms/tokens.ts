import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { authAccounts } from "@/drizzle/schema";
import { config } from "@/lib/core/config";
import { redactSecrets } from "@/lib/core/redact";
import { errorText, send } from "./http";
import { PublishError } from "@/lib/domain/networks/platform";
import type { Answer } from "./request";
import type { PublishingAccount } from "@/lib/domain/accounts/accounts";

/** A stored connection, with the account it posts as (a person's own, or a page it administers). */
export type Account = typeof authAccounts.$inferSelect & { target?: PublishingAccount };
export type Tokens = { access_token: string; refresh_token?: string; expires_in?: number };
export type Refresher = (refreshToken: string) => Promise<Tokens>;

// A refresh is one platform call, bounded by the publish timeout; a lock older than that
// (and a margin) belongs to a dead process. Never shorter than 30 s.
const lockMs = () => Math.max(30_000, config().PUBLISH_TIMEOUT_MS + 10_000);
const WAIT_MS = 15_000;

const pk = (a: Account) => and(eq(authAccounts.provider, a.provider), eq(authAccounts.providerAccountId, a.providerAccountId));
const expiring = (a: Account) => a.expires_at != null && a.expires_at * 1000 < Date.now() + 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Keeps the caller's account object current: the scheduler reuses one per user for many
 * drafts, which then need no lock round trips for a token another draft already renewed.
 */
function adopt(acc: Account, t: Pick<Account, "access_token" | "refresh_token" | "expires_at">): string {
  if (acc.access_token !== t.access_token) Object.assign(acc, { access_token: t.access_token, refresh_token: t.refresh_token, expires_at: t.expires_at });
  return t.access_token!;
}

export async function markNeedsReconnect(db: Db, a: Account) {
  await db.update(authAccounts).set({ status: "needs_reconnect", refreshLockedUntil: null, updatedAt: new Date() }).where(pk(a));
}

/**
 * A usable access token. Refreshes when it is about to expire, or when the platform refused
 * `stale`. Refresh tokens rotate (X), so only one refresh per account runs at a time: the
 * holder of refresh_locked_until refreshes and stores the new pair in one UPDATE; everyone
 * else waits and uses what it stored.
 */
export async function accessToken(db: Db, acc: Account, refresh: Refresher | null, network: string, stale?: string): Promise<string> {
  let current = acc;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (current.access_token && current.access_token !== stale && !expiring(current)) return adopt(acc, current);
    if (!refresh || !current.refresh_token) {
      await markNeedsReconnect(db, current);
      throw new PublishError(
        "failed",
        `The ${network} access token expired or was revoked and cannot be renewed; the owner must reconnect ${network} in Settings > Connections.`,
      );
    }
    const now = new Date();
    const [locked] = await db
      .update(authAccounts)
      .set({ refreshLockedUntil: new Date(now.getTime() + lockMs()) })
      .where(and(pk(current), or(isNull(authAccounts.refreshLockedUntil), lt(authAccounts.refreshLockedUntil, now))))
      .returning();
    if (locked) {
      // Someone may have refreshed between our read and the lock.
      if (locked.access_token && locked.access_token !== stale && !expiring(locked)) {
        await db.update(authAccounts).set({ refreshLockedUntil: null }).where(pk(locked));
        return adopt(acc, locked);
      }
      let t: Tokens;
      try {
        t = await refresh(locked.refresh_token!);
      } catch (e) {
        if (e instanceof PublishError && e.kind === "failed") {
          // Refused. If someone stored a renewed pair meanwhile (a holder whose lock we took
          // for a dead one's), that refusal was of the refresh token they rotated: use theirs.
          const [marked] = await db
            .update(authAccounts)
            .set({ status: "needs_reconnect", refreshLockedUntil: null, updatedAt: new Date() })
            .where(and(pk(locked), eq(authAccounts.refresh_token, locked.refresh_token!)))
            .returning({ provider: authAccounts.provider });
          if (!marked) {
            [current] = await db.update(authAccounts).set({ refreshLockedUntil: null }).where(pk(locked)).returning();
            if (!current) throw new PublishError("failed", `The ${network} account was disconnected.`);
            continue;
          }
        } else await db.update(authAccounts).set({ refreshLockedUntil: null }).where(pk(locked));
        throw e instanceof PublishError
          ? e
          : new PublishError("retry", `Renewing the ${network} token failed: ${redactSecrets(String((e as Error)?.message), 200)}`);
      }
      // The rotated pair is stored in one statement, with the lock released.
      const fresh = {
        access_token: t.access_token,
        refresh_token: t.refresh_token ?? locked.refresh_token,
        expires_at: t.expires_in ? Math.floor(Date.now() / 1000) + t.expires_in : null,
      };
      await db
        .update(authAccounts)
        .set({ ...fresh, status: "connected", refreshLockedUntil: null, updatedAt: new Date() })
        .where(pk(locked));
      return adopt(acc, fresh);
    }
    if (Date.now() > deadline) throw new PublishError("retry", `Another ${network} token refresh is still running; nothing was sent.`);
    await sleep(100);
    [current] = await db.select().from(authAccounts).where(pk(current));
    if (!current) throw new PublishError("failed", `The ${network} account was disconnected.`);
  }
}

/** The OAuth 2.0 refresh_token grant (RFC 6749 section 6) as LinkedIn and X answer it. */
export async function refreshGrant(network: string, url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Tokens> {
  let res: Answer;
  try {
    res = await send(network, url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...headers },
      body: new URLSearchParams(form).toString(),
    });
  } catch (e) {
    // Nothing was posted either way; a lost refresh answer is retried (the owner may need to reconnect).
    throw new PublishError(
      "retry",
      e instanceof PublishError ? e.message : `Renewing the ${network} token failed: ${redactSecrets(String((e as Error)?.message), 200)}`,
    );
  }
  if (res.ok) {
    const body = (await res.json().catch(() => null)) as Tokens | null;
    if (body?.access_token) return body;
    throw new PublishError("retry", `${network} answered the token refresh without a token.`);
  }
  if (res.status === 400 || res.status === 401) {
    throw new PublishError(
      "failed",
      `${network} refused to renew the access (${res.status}: ${await errorText(res)}); the owner must reconnect ${network} in Settings > Connections.`,
    );
  }
  throw new PublishError("retry", `${network} token refresh failed (${res.status}).`);
}

/** How most networks refuse an access token: 401. */
const unauthorized = async (res: Answer) => res.status === 401;

/**
 * One publish's use of a connection: a token fetched once for all its requests (uploads,
 * thread parts), renewed once when the platform refuses it (`stale`: how the network says
 * so, a 401 unless it says otherwise). Refused again: the connection needs renewing. A refused
 * token creates nothing, so the renewed call is safe to send.
 */
export function authorized(db: Db, acc: Account, refresh: (() => Refresher) | null, network: string, stale = unauthorized) {
  let token: string | undefined;
  const refresher = () => (acc.refresh_token && refresh ? refresh() : null);
  return async (call: (token: string) => Promise<Answer>): Promise<Answer> => {
    token ??= await accessToken(db, acc, refresher(), network);
    let res = await call(token);
    if (!(await stale(res))) return res;
    token = await accessToken(db, acc, refresher(), network, token);
    res = await call(token);
    if (await stale(res)) {
      await markNeedsReconnect(db, acc);
      throw new PublishError("failed", `${network} refused the access token (revoked); the owner must reconnect ${network} in Settings > Connections.`);
    }
    return res;
  };
}

/** Something the owner should know about a connection (account health shows it), or null to clear it. */
export async function setNotice(db: Db, a: Account, notice: string | null) {
  if ((a.notice ?? null) === notice) return;
  await db.update(authAccounts).set({ notice }).where(pk(a));
  a.notice = notice;
}

/**
 * Runs `fn` holding the account's refresh lock (the one accessToken takes), for a client that
 * renews tokens itself (Bluesky's OAuth client): one renewal at a time per account, across
 * processes. An account with no row yet (being connected) has nothing to share, and no lock.
 */
export async function withRefreshLock<T>(db: Db, provider: string, providerAccountId: string, network: string, fn: () => Promise<T>): Promise<T> {
  const key = and(eq(authAccounts.provider, provider), eq(authAccounts.providerAccountId, providerAccountId));
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const now = new Date();
    const [locked] = await db
      .update(authAccounts)
      .set({ refreshLockedUntil: new Date(now.getTime() + lockMs()) })
      .where(and(key, or(isNull(authAccounts.refreshLockedUntil), lt(authAccounts.refreshLockedUntil, now))))
      .returning({ provider: authAccounts.provider });
    if (locked) {
      try {
        return await fn();
      } finally {
        await db.update(authAccounts).set({ refreshLockedUntil: null }).where(key);
      }
    }
    const [held] = await db.select({ provider: authAccounts.provider }).from(authAccounts).where(key);
    if (!held) return fn();
    if (Date.now() > deadline) throw new PublishError("retry", `Another ${network} token refresh is still running; nothing was sent.`);
    await sleep(100);
  }
}
