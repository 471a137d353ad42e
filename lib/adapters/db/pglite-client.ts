import { types, type PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { countingWrites } from "./data-version";
import { withPreparedSelects } from "./pglite-statements";

// drizzle's PGlite driver hands PGlite its own type parsers with every query: timestamps,
// dates, intervals and their arrays stay text, which drizzle then maps itself. PGlite answers
// a query that brings parsers by copying its whole table of type parsers (one per type and
// array type in the catalog) into a new object and looking every column up in that copy,
// which made a small query cost far more CPU than the query itself (docs/performance.md,
// "The database").
// Installed once when the database opens instead (over the array parsers PGlite derives from
// the catalog as it opens), the same parsers give the same values, and queries that bring
// exactly these are passed on without them.
const identity = (value: string) => value;
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const drizzleParsers = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((oid) => [oid, identity]));

const installed = new Set(DRIZZLE_TEXT_TYPES.map(String));

/** The options without parsers when they are only those installed at open (a newer drizzle's extra ones keep them). */
function lighter(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers || !Object.keys(parsers).every((oid) => installed.has(oid))) return options;
  return { ...options, parsers: undefined };
}

type Query = PGlite["query"];
const lightQuery =
  (query: Query): Query =>
  (sql, params, options) =>
    query(sql, params, lighter(options));

/**
 * `client`, once open, with drizzle's parsers installed and its `query` (and that of its
 * transactions) leaving out per-query parsers that repeat them. Changes this one instance only.
 */
export function withInstalledParsers(client: PGlite): PGlite {
  client.parsers = { ...client.parsers, ...drizzleParsers };
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = lightQuery(query);
  client.transaction = <T>(fn: (tx: Transaction) => Promise<T>) => transaction((tx) => fn(Object.assign(Object.create(tx), { query: lightQuery(tx.query) })));
  return client;
}

/**
 * The embedded database's client as the service uses it, innermost first: plain SELECTs as
 * named prepared statements (pglite-statements.ts), drizzle's parsers installed once, and
 * every possible write counted (data-version.ts).
 */
export const embeddedClient = (client: PGlite): PGlite => countingWrites(withInstalledParsers(withPreparedSelects(client)));
