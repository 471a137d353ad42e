import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, useDatabase, type Database } from "@/lib/db";

/**
 * Each test file gets a database of its own: a fresh PostgreSQL database when DATABASE_URL
 * is set (the suite runs against the real server), else an in-memory PGlite. Migrations run
 * exactly as at server start.
 */
export function withDatabase(): { current: () => Database } {
  let database: Database | undefined;
  let dropName: string | undefined;
  const url = process.env.DATABASE_URL;
  beforeAll(async () => {
    if (url) {
      dropName = `contentio_test_${randomBytes(6).toString("hex")}`;
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${dropName}`);
      await admin.end();
      const u = new URL(url);
      u.pathname = `/${dropName}`;
      database = await openDatabase({ url: u.toString() });
    } else {
      database = await openDatabase({ dataDir: null });
    }
    useDatabase(database);
  });
  afterAll(async () => {
    await database?.close();
    useDatabase(undefined);
    if (url && dropName) {
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${dropName} with (force)`);
      await admin.end();
    }
  });
  return {
    current: () => {
      if (!database) throw new Error("database not open yet");
      return database;
    },
  };
}
