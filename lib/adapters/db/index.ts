import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import fs from "node:fs/promises";
import path from "node:path";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { redactSecrets } from "@/lib/core/redact";
import * as schema from "@/drizzle/schema";
import { acquireDataDirLock } from "./lock";
import { keepPrivate } from "@/lib/core/private-dir";
import { rowsOf } from "./rows";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Database = { db: Db; kind: "pglite" | "postgres"; close: () => Promise<void> };

const MIGRATIONS = path.join(process.cwd(), "drizzle", "migrations");

/** The migrations could not be applied: the process must not serve a half-migrated schema. */
export class MigrationError extends Error {
  constructor(cause: unknown) {
    // drizzle wraps the database's error in one that quotes the whole migration: the innermost says what went wrong.
    let inner = cause as Error | undefined;
    while (inner?.cause instanceof Error) inner = inner.cause;
    super(`Could not apply the database migrations: ${inner?.message ?? String(cause)}`, { cause });
    this.name = "MigrationError";
  }
}

// Instances starting together (a rolling upgrade, several replicas) would each find the same
// migrations pending and race to apply them: drizzle's migrator takes no lock. A session-level
// advisory lock, held on the one connection that migrates, lets one apply them while the
// others wait and then find nothing left to do. The key is arbitrary, fixed for this service.
const MIGRATION_LOCK = "7251830418843029504";

async function migratePostgres(url: string) {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const one = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await one`select pg_advisory_lock(${MIGRATION_LOCK}::bigint)`;
    await applyMigrations(() => migrate(drizzle(one), { migrationsFolder: MIGRATIONS }));
  } finally {
    await one.end({ timeout: 5 }); // closing the session releases the lock
  }
}

/** Applies the pending migrations; any failure is a MigrationError. */
async function applyMigrations(run: () => Promise<void>) {
  try {
    await run();
  } catch (e) {
    throw new MigrationError(e);
  }
}

/**
 * Opens PostgreSQL when a URL is given, else embedded PGlite (in `dataDir`, or in memory). An
 * in-memory one may start from `from`, a dump of an embedded database (the tests' migrated
 * template): migrations then find nothing left to do.
 */
export async function openDatabase(opts: { url?: string; dataDir?: string | null; from?: Blob }): Promise<Database> {
  if (opts.url) {
    await migratePostgres(opts.url);
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    // Patched: its connection queue slowed down under sustained load (patches/README.md;
    // upstream https://github.com/porsager/postgres/issues/747).
    const client = postgres(opts.url, { max: 10, onnotice: () => {}, connect_timeout: 5 });
    const db = drizzle(client, { schema }) as unknown as Db;
    return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
  }
  // Loaded lazily so that build workers never open the data directory.
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { embeddedClient } = await import("./pglite-client");
  const release = opts.dataDir ? acquireDataDirLock(opts.dataDir) : () => {};
  if (opts.dataDir) privateFiles();
  try {
    // One process, one user of the data: PostgreSQL's default 128 MB of shared buffers only
    // inflates the server's memory (docs/performance.md); the files stay in the OS page cache.
    // Prepared statements (pglite-statements.ts) are still planned for their actual values
    // every time, as PGlite's unnamed ones were: a plan made once for any value would serve a
    // search for a common word as it served a rare one. Planning a point lookup costs little.
    const options = { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB", "-c", "plan_cache_mode=force_custom_plan"] };
    const client = embeddedClient(opts.dataDir ? await PGlite.create(opts.dataDir, options) : await PGlite.create({ ...options, loadDataDir: opts.from }));
    // A new folder's files come from PGlite's template, written 0666 whatever the umask.
    if (opts.dataDir) keepPrivate(opts.dataDir);
    const db = drizzle(client, { schema }) as unknown as Db;
    await applyMigrations(() => migrate(db as never, { migrationsFolder: MIGRATIONS }));
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

/**
 * Files the embedded database creates as it runs (WAL segments, relations, its caches) take
 * the process's umask: none for the group or others (DATA_DIR is 0700 as well: private-dir.ts).
 * A worker thread cannot set it, and there is none to set there.
 */
function privateFiles() {
  try {
    process.umask(0o077);
  } catch {}
}

// One database per process (a globalThis singleton survives Next's module reloading).
const g = globalThis as unknown as { __contentioDb?: Promise<Database>; __contentioDbHandle?: Promise<Db> };

export function database(): Promise<Database> {
  if (!g.__contentioDb) {
    const c = config();
    g.__contentioDb = openDatabase({ url: c.DATABASE_URL, dataDir: path.resolve(c.DATA_DIR) });
    g.__contentioDb.catch((e) => {
      g.__contentioDb = g.__contentioDbHandle = undefined; // let the next request try again
      // ...unless the database was reached and its schema could not be brought up to date:
      // serving a half-migrated schema would corrupt data, so the process stops and says why.
      if (e instanceof MigrationError) {
        // The database's own words (a migration has no parameters to leak), still redacted.
        log("error", "stopping: the database migrations failed", { error: redactSecrets(e.message, 300) });
        process.exit(1);
      }
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

const JOURNAL = path.join(MIGRATIONS, "meta", "_journal.json");
/** The build's migrations, read once: a readiness probe asks often. */
let journal: Promise<{ when: number }[]> | undefined;

/** Whether every migration this build carries is applied (another instance may have applied newer ones). */
export async function migrationsApplied(d: Db): Promise<boolean> {
  const entries = await (journal ??= fs.readFile(JOURNAL, "utf8").then((t) => (JSON.parse(t) as { entries: { when: number }[] }).entries));
  const [row] = rowsOf<{ last: string | null }>(await d.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`));
  const last = Number(row?.last ?? 0);
  return last >= Math.max(...entries.map((e) => e.when));
}
