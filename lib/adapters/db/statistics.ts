import { sql } from "drizzle-orm";
import type { Database } from "./index";
import { repeatPasses, type Passes } from "@/lib/core/passes";
import { rowsOf } from "./rows";

// The planner chooses between walking a user's items in recency order and reading a word's
// matches through its text-search index by how common the word is: without statistics it
// guesses every word is rare, and a search for a common word reads all its matches, which
// is slow in a large store. PGlite has no autovacuum, and a PostgreSQL may run without it,
// so the service gathers statistics itself for the tables that have grown since their last
// (or first) ANALYZE. On a PostgreSQL whose autovacuum analyzes at 10 % of change, the
// service's 50 % rule finds nothing to do.

/** Tables smaller than this are read whole quickly, and ANALYZE grows PGlite's memory for good (docs/performance.md). */
export const STATISTICS_FROM_BYTES = 2 * 1024 * 1024;
/** A table is analyzed again once it has grown by half since its last ANALYZE. */
const GROWTH = 1.5;
const EVERY_MS = 60_000;

/** The tables of the service due for statistics, by the rule above. */
async function grownTables(d: Database): Promise<string[]> {
  const result = await d.db.execute(sql`
    select c.relname as name from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
      and pg_relation_size(c.oid) >= ${sql.raw(String(STATISTICS_FROM_BYTES))}
      and pg_relation_size(c.oid) > ${sql.raw(String(GROWTH))} * c.relpages * current_setting('block_size')::bigint
    order by c.relname`);
  return rowsOf<{ name: string }>(result).map((r) => r.name);
}

/**
 * Analyzes the tables that have grown enough since their last statistics; answers their
 * names. On PGlite, which runs every query on the server's own thread, with a small sample: a
 * shorter pause than the default's, and enough for the planner's choice (docs/performance.md).
 */
export async function refreshStatistics(d: Database): Promise<string[]> {
  const tables = await grownTables(d);
  if (tables.length === 0) return tables;
  const list = sql.join(
    tables.map((t) => sql.identifier(t)),
    sql`, `,
  );
  const analyze = () => d.db.execute(sql`analyze ${list}`);
  if (d.kind !== "pglite") await analyze();
  else {
    // One session: the setting holds for this ANALYZE only, and touches nothing else.
    await d.db.execute(sql`set default_statistics_target = 10`);
    try {
      await analyze();
    } finally {
      await d.db.execute(sql`reset default_statistics_target`);
    }
  }
  return tables;
}

/**
 * Keeps statistics fresh while the server runs: a pass at start, then a minute after each
 * pass ends. A failure (the database not reachable yet) only costs the planner its
 * statistics until the next pass.
 */
export function keepStatistics(database: () => Promise<Database>, report: { analyzed: (tables: string[]) => void; failed: (e: unknown) => void }): Passes {
  return repeatPasses(async () => {
    try {
      const tables = await refreshStatistics(await database());
      if (tables.length) report.analyzed(tables);
    } catch (e) {
      report.failed(e);
    }
    return EVERY_MS;
  });
}
