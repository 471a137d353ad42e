import { afterAll, beforeAll } from "vitest";
import { openDatabase, useDatabase, type Database } from "@/lib/adapters/db";
import { migratedTemplate } from "./pglite-template";
import { tempDatabase, type TempDatabase } from "./temp-database";

/**
 * Each test file gets a database of its own: a fresh PostgreSQL database when DATABASE_URL
 * is set (the suite runs against the real server), else an in-memory PGlite started from a
 * migrated template (pglite-template.ts). Migrations run exactly as at server start.
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
      database = await openDatabase({ dataDir: null, from: await migratedTemplate() });
    }
    useDatabase(database);
  });
  afterAll(async () => {
    await database?.close();
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
