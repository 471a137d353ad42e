import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, useDatabase, type Database } from "@/lib/adapters/db";
import { migratedTemplate } from "./pglite-template";
import { tempDatabase, type TempDatabase } from "./temp-database";

/**
 * Each test file gets a database of its own: a fresh PostgreSQL database when DATABASE_URL
 * is set (the suite runs against the real server), else the worker's in-memory PGlite with the
 * rows of a freshly migrated one (embeddedDatabase()). Migrations run exactly as at server start.
 */
export function withDatabase(): { current: () => Database } {
  let database: Database | undefined;
  let temp: TempDatabase | undefined;
  const url = process.env.DATABASE_URL;
  beforeAll(async () => {
    if (url) {
      temp = await tempDatabase(url);
      database = await openDatabase({ url: temp.url });
    } else {
      database = await embeddedDatabase();
    }
    useDatabase(database);
  });
  afterAll(async () => {
    if (url) await database?.close();
    useDatabase(undefined);
    await temp?.drop();
  });
  return {
    current: () => {
      if (!database) throw new Error("database not open yet");
      return database;
    },
  };
}

type Embedded = { database: Database; reset: () => Promise<void> };
let embedded: Embedded | undefined;

/**
 * The worker's embedded database, emptied to the rows a migrated one starts with. Files in a
 * worker run one after another, so they share one in-memory PGlite (started from the migrated
 * template: pglite-template.ts) rather than each load the template into a new one, which costs
 * several times as much CPU as emptying its tables. A file that closed it gets a new one.
 */
async function embeddedDatabase(): Promise<Database> {
  if (embedded) {
    try {
      await embedded.reset();
      return embedded.database;
    } catch {
      embedded = undefined;
    }
  }
  const database = await openDatabase({ dataDir: null, from: await migratedTemplate() });
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const tables = (await client.query<{ name: string }>("select quote_ident(tablename) as name from pg_tables where schemaname = 'public'")).rows.map(
    (r) => r.name,
  );
  // Rows the migrations wrote (the auth epoch's), put back after each emptying.
  const seeded: [string, string][] = [];
  for (const t of tables) {
    // As PostgreSQL writes them, so that no value is rounded on the way (a bigint in JSON).
    const { rows } = await client.query<{ json: string | null }>(`select json_agg(t)::text as json from ${t} t`);
    if (rows[0].json) seeded.push([t, rows[0].json]);
  }
  const reset = () =>
    client.transaction(async (tx) => {
      await tx.exec(`truncate ${tables.join(", ")} restart identity cascade`);
      for (const [t, rows] of seeded) await tx.query(`insert into ${t} select * from json_populate_recordset(null::${t}, $1)`, [rows]);
    });
  embedded = { database, reset };
  return database;
}
