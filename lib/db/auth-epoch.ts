import { sql } from "drizzle-orm";
import type { Db } from "./index";
import { perDatabase } from "./per-database";
import { rowsOf } from "./rows";

// The authentication epoch (migration 0009): a counter PostgreSQL moves, in the same
// transaction, with every change to tokens, connected apps, OAuth clients or users, whoever
// writes it. A token's row read together with the counter stays exactly current while the
// counter stands still (lib/domain/tokens.ts).

/** The counter in a select list: read in the same statement, hence the same snapshot, as the rest. */
export const epochColumn = sql<string>`(select n from auth_epoch)`.mapWith(String);

const READ = sql`select n from auth_epoch`;

/**
 * The counter as a read sent after this call began. Every call made in one turn of the event
 * loop shares one read, sent when the turn's own work is done: under load one small query
 * stands in for the token lookups of many requests. A read already sent may have taken its
 * snapshot before a caller arrived, so no caller ever joins one; each waits for a read of
 * its own turn.
 */
export const authEpoch = perDatabase((db: Db) => {
  let next: Promise<string> | null = null;
  const read = async () => String(rowsOf<{ n: string | number }>(await db.execute(READ))[0].n);
  return (): Promise<string> =>
    (next ??= new Promise<string>((resolve, reject) =>
      setImmediate(() => {
        next = null;
        read().then(resolve, reject);
      }),
    ));
});
