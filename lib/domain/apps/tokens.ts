import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { approvals, connectedApps, oauthClients, tokens, users, webhookEndpoints, type TokenKind } from "@/drizzle/schema";
import type { Caller, Ctx } from "../context";
import { isUuid } from "@/lib/core/ids";
import { Unauthorized, cancelled } from "@/lib/core/errors";
import { dataVersion } from "@/lib/adapters/db/data-version";
import { perDatabase } from "@/lib/adapters/db/per-database";
import { authEpoch, epochColumn } from "@/lib/adapters/db/auth-epoch";

// Opaque tokens: 256 random bits behind a prefix that makes leaked tokens easy to spot.
const PREFIX = { access: "cto_at_", refresh: "cto_rt_" } as const;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function newToken(kind: TokenKind): string {
  return PREFIX[kind] + randomBytes(32).toString("base64url");
}

export async function issueToken(
  db: Db,
  opts: {
    kind: TokenKind;
    appId: string;
    userId: string;
    scopes: string[];
    audience: string[];
    ttlSeconds: number;
    codeId?: string | null;
    now?: Date;
  },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken(opts.kind);
  const expiresAt = new Date((opts.now ?? new Date()).getTime() + opts.ttlSeconds * 1000);
  await db.insert(tokens).values({
    tokenHash: hashToken(token),
    kind: opts.kind,
    appId: opts.appId,
    userId: opts.userId,
    scopes: opts.scopes,
    audience: opts.audience,
    codeId: opts.codeId ?? null,
    expiresAt,
  });
  return { token, expiresAt };
}

export type AuthResult = { ok: true; caller: Caller } | { ok: false; reason: "invalid" | "expired" | "revoked" | "audience" };

// Only refresh last_used_at once a minute, so reads stay reads.
const LAST_USED_RESOLUTION_MS = 60_000;

// The token query runs on every call; built once per database (prepared), it costs a
// fraction of the CPU of building the four-table join each time (R1 and R2 of docs/performance.md).
const authQuery = perDatabase(prepareAuthQuery);

function prepareAuthQuery(db: Db) {
  return db
    .select({
      token: { expiresAt: tokens.expiresAt, revokedAt: tokens.revokedAt, scopes: tokens.scopes, audience: tokens.audience },
      app: { id: connectedApps.id, revokedAt: connectedApps.revokedAt, lastUsedAt: connectedApps.lastUsedAt },
      clientName: oauthClients.name,
      epoch: epochColumn,
      user: {
        id: users.id,
        email: users.email,
        name: users.name,
        image: users.image,
        plan: users.plan,
        accountCompletedAt: users.accountCompletedAt,
        timezone: users.timezone,
        publishingAllowed: users.publishingAllowed,
      },
    })
    .from(tokens)
    .innerJoin(connectedApps, eq(connectedApps.id, tokens.appId))
    .innerJoin(oauthClients, eq(oauthClients.id, connectedApps.clientId))
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(and(eq(tokens.tokenHash, sql.placeholder("hash")), eq(tokens.kind, "access")))
    .limit(1)
    .prepare("authenticate_access_token");
}

type AuthRow = Awaited<ReturnType<ReturnType<typeof prepareAuthQuery>["execute"]>>[number];

// A token's row is reused only while nothing it was read from can have changed; expiry is
// checked against the clock on every call. Two stamps prove that, both moved by every write
// that could change the row (revoking a token, disconnecting an app, changing the user):
// - the embedded database's data version (lib/adapters/db/data-version.ts): every write through the
//   one process that holds it moves it, so checking it costs nothing;
// - elsewhere (PostgreSQL, written by other processes, the admin CLI, psql) the
//   authentication epoch (lib/adapters/db/auth-epoch.ts), which the token query reads in the same
//   statement as the row. A reuse waits for a read of the epoch sent after the call began,
//   shared by all the calls of one turn of the event loop.
// Only tokens that exist are kept, and at most MAX_CACHED, so random tokens fill nothing.
const MAX_CACHED = 1000;
const rowCaches = new WeakMap<Db, Map<string, { stamp: number | string; row: AuthRow }>>();

async function tokenRow(db: Db, hash: string): Promise<AuthRow | undefined> {
  let cache = rowCaches.get(db);
  if (!cache) rowCaches.set(db, (cache = new Map()));
  const hit = cache.get(hash);
  const version = dataVersion(db);
  if (hit && hit.stamp === (version ?? (await authEpoch(db)()))) return hit.row;
  const row = (await authQuery(db).execute({ hash }))[0];
  cache.delete(hash);
  // Kept under the version read before the query (any write since then, even one that ran
  // while the query waited, makes it unusable), or the epoch read with the row itself.
  if (row) {
    cache.set(hash, { stamp: version ?? row.epoch, row });
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  }
  return row;
}

/**
 * Resolves an access token to its user and connected app. Checked on every call, never from
 * a stale copy, so that revoking a token or disconnecting its app takes effect on the next call.
 */
export async function authenticate(db: Db, token: string, audience: string, now = new Date()): Promise<AuthResult> {
  if (!token.startsWith(PREFIX.access) || token.length > 200) return { ok: false, reason: "invalid" };
  const row = await tokenRow(db, hashToken(token));
  if (!row) return { ok: false, reason: "invalid" };
  if (row.token.revokedAt || row.app.revokedAt) return { ok: false, reason: "revoked" };
  if (row.token.expiresAt <= now) return { ok: false, reason: "expired" };
  if (!row.token.audience.includes(audience)) return { ok: false, reason: "audience" };
  if (!row.app.lastUsedAt || now.getTime() - row.app.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Also on the kept row: last_used_at does not move the epoch, and the kept row would
    // otherwise ask for this write on every call.
    row.app.lastUsedAt = now;
    void touchApp(db, row.app.id, now);
  }
  const u = row.user;
  return {
    ok: true,
    caller: {
      userId: u.id,
      email: u.email,
      name: u.name,
      image: u.image,
      plan: u.plan,
      accountComplete: u.accountCompletedAt !== null,
      timezone: u.timezone,
      publishingAllowed: u.publishingAllowed,
      appId: row.app.id,
      appName: row.clientName,
      scopes: [...row.token.scopes],
    },
  };
}

async function touchApp(db: Db, appId: string, now: Date) {
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await db
    .update(connectedApps)
    .set({ lastUsedAt: now })
    .where(and(eq(connectedApps.id, appId), or(isNull(connectedApps.lastUsedAt), lt(connectedApps.lastUsedAt, stale))))
    .catch(() => {}); // bookkeeping only: never fail or log a request over it
}

export const DISCONNECTED_APP_ENDPOINT =
  "The app that added it was disconnected, so the service paused it. Resume it if you still want these events sent there.";

/**
 * Disconnect: every token of the app stops working on the very next call. One transaction: a
 * call already past its token check sees all of it or none (it reads the app's row FOR SHARE:
 * appConnected), never an app marked gone whose approval still stands.
 */
export async function revokeApp(db: Db, userId: string, appId: string, now = new Date()): Promise<boolean> {
  if (!isUuid(appId)) return false;
  return db.transaction((tx) => revokeIn(tx, userId, appId, now));
}

async function revokeIn(db: Db, userId: string, appId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(connectedApps)
    .set({ revokedAt: now })
    .where(and(eq(connectedApps.id, appId), eq(connectedApps.userId, userId), isNull(connectedApps.revokedAt)))
    .returning({ id: connectedApps.id });
  // Scoped to the user too: another user's app id revokes nothing.
  await db
    .update(tokens)
    .set({ revokedAt: now })
    .where(and(eq(tokens.appId, appId), eq(tokens.userId, userId), isNull(tokens.revokedAt)));
  // Its open approvals end with it: an approval page left open cannot approve them, and a call
  // or task still waiting on one (holding the app's standing from before) is refused, not run.
  await db
    .update(approvals)
    .set({ status: "denied", decidedAt: now })
    .where(and(eq(approvals.appId, appId), eq(approvals.userId, userId), inArray(approvals.status, ["pending", "approved"])));
  // The webhook endpoints it added stop receiving: the app no longer learns what happens. They
  // stay, paused, for the owner to resume or delete.
  await db
    .update(webhookEndpoints)
    .set({ status: "paused", pausedReason: DISCONNECTED_APP_ENDPOINT, updatedAt: now })
    .where(and(eq(webhookEndpoints.appId, appId), eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.status, "active")));
  return rows.length > 0;
}

/**
 * For the write at the end of a long call (generation writes seconds after it began, once the
 * model has answered): a call whose caller gave up (Ctx.signal: an MCP client cancelled it), or
 * whose app was disconnected while it ran, saves nothing (and its debit is given back). Run
 * inside the write's transaction. The app's row is read FOR SHARE, so a disconnect, whose
 * first step updates that row, either has committed and is seen here, or waits for this write
 * to commit and comes after it. The owner in person has no app to lose.
 */
export async function stillWanted(db: Db, ctx: Ctx): Promise<void> {
  if (ctx.signal?.aborted) throw cancelled();
  if (!(await appConnected(db, ctx))) throw new Unauthorized("The app was disconnected from the account while this call ran, so nothing was saved.", true);
}

/** Whether the caller's app is still connected, its row read FOR SHARE (see stillWanted); the owner in person has none. */
export async function appConnected(db: Db, ctx: Ctx): Promise<boolean> {
  if (ctx.caller.inPerson) return true;
  const [app] = await db.select({ revokedAt: connectedApps.revokedAt }).from(connectedApps).where(eq(connectedApps.id, ctx.caller.appId)).for("share");
  return !!app && !app.revokedAt;
}
