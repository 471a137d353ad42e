import { sql } from "drizzle-orm";
import type { Db } from "./index";
import { perDatabase } from "./per-database";
import { rowsOf } from "./rows";
import { batchCalls } from "@/lib/core/batch-calls";

// The authentication epoch (migrations 0009-0010): a value PostgreSQL draws anew at random, in
// the same transaction, with every change to tokens, connected apps, OAuth clients or users,
// whoever writes it. A token's row read together with the epoch stays exactly current while
// the epoch stands still (lib/domain/apps/tokens.ts). Random rather than counted: a database put
// back to an earlier state (a restore, a failover that lost commits) would count again
// through values a running server had already kept rows with.

/** The epoch in a select list: read in the same statement, hence the same snapshot, as the rest. */
export const epochColumn = sql<string>`(select n from auth_epoch)`.mapWith(String);

const READ = sql`select n from auth_epoch`;

/**
 * The epoch as read after this call began (lib/core/batch-calls.ts): all the calls of one turn of
 * the event loop share one read, sent when the turn's own work is done, so that under load
 * one small query stands in for the token lookups of many requests.
 */
export const authEpoch = perDatabase((db: Db) => {
  const read = batchCalls(async () => String(rowsOf<{ n: string | number }>(await db.execute(READ))[0].n));
  return async (): Promise<string> => (await read("")).value;
});
