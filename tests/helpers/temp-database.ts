import { randomBytes } from "node:crypto";
import postgres from "postgres";

export type TempDatabase = { name: string; url: string; drop: () => Promise<void> };

/**
 * A new, empty database on the PostgreSQL server of `serverUrl` (tests, browser tests and
 * the benchmark each get their own), and how to drop it again.
 */
export async function tempDatabase(serverUrl: string, prefix = "contentio_test"): Promise<TempDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = () => postgres(serverUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  const a = admin();
  try {
    await a.unsafe(`create database "${name}"`);
  } finally {
    await a.end({ timeout: 5 });
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      const b = admin();
      try {
        await b.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await b.end({ timeout: 5 });
      }
    },
  };
}
