import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import path from "node:path";
import { config } from "@/lib/core/config";
import * as schema from "@/drizzle/schema";
import { acquireDataDirLock } from "./lock";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Database = { db: Db; kind: "pglite" | "postgres"; close: () => Promise<void> };

const MIGRATIONS = path.join(process.cwd(), "drizzle", "migrations");

/**
 * Opens PostgreSQL when a URL is given, else embedded PGlite (in `dataDir`, or in memory). An
 * in-memory one may start from `from`, a dump of an embedded database (the tests' migrated
 * template): migrations then find nothing left to do.
 */
export async function openDatabase(opts: { url?: string; dataDir?: string | null; from?: Blob }): Promise<Database> {
  if (opts.url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const client = postgres(opts.url, { max: 10, onnotice: () => {}, connect_timeout: 5 });
    const db = drizzle(client, { schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder: MIGRATIONS });
    return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
  }
  // Loaded lazily so that build workers never open the data directory.
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { embeddedClient } = await import("./pglite-client");
  const release = opts.dataDir ? acquireDataDirLock(opts.dataDir) : () => {};
  try {
    // One process, one user of the data: PostgreSQL's default 128 MB of shared buffers only
    // inflates the server's memory (docs/performance.md); the files stay in the OS page cache.
    // Prepared statements (pglite-statements.ts) are still planned for their actual values
    // every time, as PGlite's unnamed ones were: a plan made once for any value would serve a
    // search for a common word as it served a rare one. Planning a point lookup costs little.
    const options = { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB", "-c", "plan_cache_mode=force_custom_plan"] };
    const client = embeddedClient(opts.dataDir ? await PGlite.create(opts.dataDir, options) : await PGlite.create({ ...options, loadDataDir: opts.from }));
    const db = drizzle(client, { schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder: MIGRATIONS });
    return {
      db,
      kind: "pglite",
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

// One database per process (a globalThis singleton survives Next's module reloading).
const g = globalThis as unknown as { __contentioDb?: Promise<Database>; __contentioDbHandle?: Promise<Db> };

export function database(): Promise<Database> {
  if (!g.__contentioDb) {
    const c = config();
    g.__contentioDb = openDatabase({ url: c.DATABASE_URL, dataDir: path.resolve(c.DATA_DIR) });
    g.__contentioDb.catch(() => {
      g.__contentioDb = g.__contentioDbHandle = undefined; // let the next request try again
    });
  }
  return g.__contentioDb;
}

/** The database: one promise, the same on every call (every request asks, twice). */
export function db(): Promise<Db> {
  return (g.__contentioDbHandle ??= database().then((d) => d.db));
}

/** Tests install their own database (in-memory PGlite or a fresh PostgreSQL database). */
export function useDatabase(d: Database | undefined) {
  g.__contentioDb = d ? Promise.resolve(d) : undefined;
  g.__contentioDbHandle = undefined;
}

export { schema };
