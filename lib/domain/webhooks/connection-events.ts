import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { connectionState, networkOfProvider, PROVIDERS, type Provider } from "@/lib/domain/networks";
import { authAccounts, webhookEndpoints, webhookEvents } from "@/drizzle/schema";
import { emit } from "./emit";

// connection.expiring and connection.needs_reconnect come from the connections' stored state
// (an access token that runs out, a refresh the platform refused), found by a sweep like the
// e-mail notifications' rather than at the moment a token is refused: nothing is missed when
// no request happens to touch the connection. Each state of a connection is announced once:
// the event's subject names it, and a transaction-scoped advisory lock makes the check and
// the write one step across processes.

const WARN_BEFORE_MS = 7 * 86400_000;

export async function announceConnections(db: Db, now: Date): Promise<number> {
  const subscribed = db
    .select({ userId: webhookEndpoints.userId })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.status, "active"),
        sql`(${webhookEndpoints.events} @> '["connection.expiring"]'::jsonb or ${webhookEndpoints.events} @> '["connection.needs_reconnect"]'::jsonb)`,
      ),
    );
  const accounts = await db
    .select({
      userId: authAccounts.userId,
      provider: authAccounts.provider,
      status: authAccounts.status,
      expires_at: authAccounts.expires_at,
      refresh_token: authAccounts.refresh_token,
      updatedAt: authAccounts.updatedAt,
    })
    .from(authAccounts)
    .where(and(inArray(authAccounts.provider, [...PROVIDERS]), inArray(authAccounts.userId, subscribed)))
    .limit(1000);
  let written = 0;
  for (const a of accounts) {
    const { platform } = networkOfProvider(a.provider as Provider);
    const { state, until } = connectionState(a, now);
    let event;
    if (state === "needs_reconnect") {
      const reason = a.status === "needs_reconnect" ? ("revoked" as const) : ("expired" as const);
      const key = `connection:${a.provider}:needs_reconnect:${reason === "revoked" ? a.updatedAt.getTime() : a.expires_at}`;
      event = { userId: a.userId, type: "connection.needs_reconnect" as const, subject: key, data: { platform, reason } };
    } else if (until && until.getTime() - now.getTime() <= WARN_BEFORE_MS) {
      const key = `connection:${a.provider}:expiring:${a.expires_at}`;
      event = { userId: a.userId, type: "connection.expiring" as const, subject: key, data: { platform, expires_at: until.toISOString() } };
    } else continue;
    const e = event;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${e.userId}:${e.subject}`}))`);
      const [seen] = await tx
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(and(eq(webhookEvents.userId, e.userId), eq(webhookEvents.subject, e.subject)))
        .limit(1);
      if (!seen && (await emit(tx, e as Parameters<typeof emit>[1], { now })).length) written++;
    });
  }
  return written;
}
