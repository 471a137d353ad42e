import type { PGlite, Transaction } from "@electric-sql/pglite";

// The embedded database has one user: the process that holds its data directory
// (lib/adapters/db/lock.ts), or that created it in memory. Every statement that may change data goes
// through that process's client, so a counter moved around each such statement tells exactly
// whether anything read earlier could have changed since. Reads reused while it stands still
// are as fresh as a new query (lib/domain/apps/tokens.ts). PostgreSQL has other writers (other
// processes, the admin CLI, psql) and gets no counter.
// Kept on the client itself: the server's bundles may hold more than one copy of this module.
const VERSION = Symbol.for("contentio.dataVersion");
type Counted = { [VERSION]?: { n: number } };

// A statement that starts with SELECT changes no data here: the schema's one function that
// writes (migration 0009's epoch trigger) runs only on UPDATE, DELETE and TRUNCATE. Anything
// else (INSERT, UPDATE, DELETE, WITH, DDL, several statements in one exec) counts as a write.
const SELECT = /^\s*\(?\s*select\b/i;
export const isSelect = (sql: string) => SELECT.test(sql);

/**
 * Counts possible writes on `client`: before and after every statement that is not a plain
 * SELECT, and before and after every transaction (whatever it runs). PGlite runs queries,
 * execs and transactions one at a time, so a read either finishes before a write starts or
 * starts after it ends; a version read before a lookup and unchanged afterwards proves the
 * lookup's rows current.
 */
export function countingWrites(client: PGlite): PGlite {
  const version = { n: 0 };
  (client as Counted)[VERSION] = version;
  const moved = <T>(run: () => Promise<T>): Promise<T> => {
    version.n++;
    return run().finally(() => version.n++);
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (sql, params, options) => (isSelect(sql) ? query(sql, params, options) : moved(() => query(sql, params, options)));
  client.exec = (sql, options) => moved(() => exec(sql, options));
  client.transaction = <T>(fn: (tx: Transaction) => Promise<T>) => moved(() => transaction(fn));
  return client;
}

/** The data version of the database behind `db`, or undefined where writes are not all seen (PostgreSQL, a transaction). */
export function dataVersion(db: object): number | undefined {
  return (db as { $client?: Counted }).$client?.[VERSION]?.n;
}
