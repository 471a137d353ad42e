import { getTableName, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { authorizationCodes, connectedApps, elicitations, idempotencyKeys, mcpTasks, networkSignIns, oauthClients, tokens } from "@/drizzle/schema";
import { repeatPasses, type Passes } from "@/lib/core/passes";
import type { Db } from "./index";
import { rowsOf } from "./rows";

// Rows that matter only for a while: a caller's Idempotency-Key (24 hours), an MCP task (its
// ttl), an owner's wait in an MCP session, a network sign-in left unfinished, an authorization code, an expired token, a client
// that registered itself and was never connected. Most are cleared as their user makes new
// ones; those of users who stop calling would stay forever. (Approvals stay: they are a
// draft's history of who asked and who approved.)
// Each process removes, every hour, what expired with a margin, in bounded batches (a pass
// never holds the database for long; what is left goes in the next one).

const BATCH = 1000;
const MAX_BATCHES = 10;
const EVERY_MS = 3600_000;
/** Not at start: the first requests come before housekeeping. */
const FIRST_AFTER_MS = 5 * 60_000;

const STALE: Array<[PgTable, SQL]> = [
  // Taken over after 24 hours anyway (idempotency.ts); a day's margin for clocks.
  [idempotencyKeys, sql`${idempotencyKeys.createdAt} < now() - interval '2 days'`],
  // tasks/get answers an expired task as unknown.
  [mcpTasks, sql`${mcpTasks.expiresAt} < now()`],
  [elicitations, sql`${elicitations.expiresAt} < now() - interval '1 day'`],
  // A network sign-in the owner never came back from (its callback refuses it once expired).
  [networkSignIns, sql`${networkSignIns.expiresAt} < now()`],
  // Kept while a token issued from it lives: the code used again revokes them (token.ts).
  [
    authorizationCodes,
    sql`${authorizationCodes.expiresAt} < now() - interval '1 day' and not exists
      (select 1 from ${tokens} where ${tokens.codeId} = ${authorizationCodes.id} and ${tokens.revokedAt} is null and ${tokens.expiresAt} > now())`,
  ],
  // Each refresh adds a pair. An expired token is refused whether its row is there or not
  // (a rotated refresh token replayed after its expiry can no longer be told apart, nor used).
  [tokens, sql`${tokens.expiresAt} < now() - interval '1 day'`],
  // Anyone may register (or name a metadata document): a client no one connected within a
  // week is abandoned. One that any grant names, even a disconnected one, stays: deleting it
  // would cascade to that grant, a row of Settings > Connections. Clients made by the command
  // line are not registrations.
  [
    oauthClients,
    sql`${oauthClients.selfRegistered} and ${oauthClients.createdAt} < now() - interval '7 days'
      and not exists (select 1 from ${connectedApps} where ${connectedApps.clientId} = ${oauthClients.id})
      and not exists (select 1 from ${authorizationCodes} where ${authorizationCodes.clientId} = ${oauthClients.id})`,
  ],
];

/** One pass: how many rows went from each table that had any. */
export async function tidyOnce(db: Db): Promise<Record<string, number>> {
  const gone: Record<string, number> = {};
  for (const [table, stale] of STALE) {
    for (let i = 0; i < MAX_BATCHES; i++) {
      // Rows another transaction holds are left for the next pass: a client being connected
      // right now is locked by its new grant's reference (FOR KEY SHARE) before that grant is
      // committed, and deleting it then would cascade to the grant.
      const result = await db.execute(
        sql`delete from ${table}
          where ctid = any(array(select ctid from ${table} where ${stale} limit ${sql.raw(String(BATCH))} for update skip locked)) returning 1 as x`,
      );
      const n = rowsOf(result).length;
      if (n) gone[getTableName(table)] = (gone[getTableName(table)] ?? 0) + n;
      if (n < BATCH) break;
    }
  }
  return gone;
}

/** Housekeeping while the server runs: a first pass a few minutes after start, then hourly. */
export function keepTidy(db: () => Promise<Db>, report: { removed: (rows: Record<string, number>) => void; failed: (e: unknown) => void }): Passes {
  let started = false;
  return repeatPasses(async () => {
    if (!started) {
      started = true;
      return FIRST_AFTER_MS;
    }
    try {
      const gone = await tidyOnce(await db());
      if (Object.keys(gone).length) report.removed(gone);
    } catch (e) {
      report.failed(e);
    }
    return EVERY_MS;
  });
}
