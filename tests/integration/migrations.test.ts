import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { MigrationError, openDatabase, type Database } from "@/lib/adapters/db";
import { migratedTemplate } from "../helpers/pglite-template";
import { tempDatabase, type TempDatabase } from "../helpers/temp-database";

// Several instances starting together on one database (a rolling upgrade, a scaled
// deployment) must apply each migration once and all come up; a migration that fails must
// stop the instance instead of leaving it serving a half-migrated schema.

const JOURNAL = JSON.parse(fs.readFileSync(path.join("drizzle", "migrations", "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
const SERVER = process.env.DATABASE_URL;

const opened: Database[] = [];
const temps: TempDatabase[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
  await Promise.all(temps.splice(0).map((t) => t.drop()));
});

async function fresh(): Promise<TempDatabase> {
  const t = await tempDatabase(SERVER!, "contentio_migrate");
  temps.push(t);
  return t;
}

async function onPostgres<T>(url: string, q: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await q(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

describe.skipIf(!SERVER)("migrations on PostgreSQL", () => {
  it("instances starting at the same instant on an empty database all come up, each migration applied once", async () => {
    const t = await fresh();
    const all = await Promise.allSettled([1, 2, 3, 4].map(() => openDatabase({ url: t.url })));
    for (const r of all) if (r.status === "fulfilled") opened.push(r.value);
    expect(all.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok", "ok", "ok"]);
    const applied = await onPostgres(t.url, (sql) => sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied[0].n).toBe(JOURNAL.entries.length);
  });

  it("a migration that fails stops the start with the migration's error, and leaves nothing half applied", async () => {
    const t = await fresh();
    // Something already holds a name the first migration creates.
    await onPostgres(t.url, (sql) => sql`create table users (x int)`);
    const failed = await openDatabase({ url: t.url }).then(
      (d) => (opened.push(d), null),
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(MigrationError);
    expect(String((failed as Error).message)).toMatch(/^Could not apply the database migrations: .*"users" already exists/);
    const tables = await onPostgres(t.url, (sql) => sql<{ n: number }[]>`select count(*)::int as n from pg_tables where schemaname = 'public'`);
    expect(tables[0].n).toBe(1);
  });
});

describe.skipIf(SERVER)("migrations on the embedded database", () => {
  it("a migration that fails stops the start with the migration's error", async () => {
    // A database whose record of the last migration was lost: applying it again fails.
    const { PGlite } = await import("@electric-sql/pglite");
    const pg = await PGlite.create({ loadDataDir: await migratedTemplate() });
    await pg.exec("delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)");
    const dump = await pg.dumpDataDir("none");
    await pg.close();
    const failed = await openDatabase({ from: dump }).then(
      (d) => (opened.push(d), null),
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(MigrationError);
    expect(String((failed as Error).message)).toMatch(/^Could not apply the database migrations: (column "\w+" of )?relation "\w+" already exists/);
  });
});
