import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Which database a process means, so that two processes can tell whether they mean the same
// one (the admin channel: lib/transports/cli/channel.ts). Never the password: two URLs that
// differ only in it reach the same database. Stricter than needed rather than looser: two
// spellings of one server (localhost and 127.0.0.1) count as two databases, which costs a
// command at most its own connection, never a write to the wrong database.

export type DatabaseIdentity = {
  /** A fingerprint: equal for the same database as both processes were configured. */
  id: string;
  /** The database in words, without its password. */
  label: string;
};

/** The database of this configuration: PostgreSQL's URL when given, else the embedded one in DATA_DIR. */
export function databaseIdentity(c: { DATABASE_URL?: string; DATA_DIR: string }): DatabaseIdentity {
  const label = c.DATABASE_URL ? postgresLabel(c.DATABASE_URL) : `the embedded database in ${realDir(c.DATA_DIR)}`;
  return { id: createHash("sha256").update(label).digest("base64url"), label };
}

/** user@host:port/database and the connection's parameters, without any password. */
function postgresLabel(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `PostgreSQL at an unreadable URL (${createHash("sha256").update(url).digest("base64url").slice(0, 12)})`;
  }
  const user = decodeURIComponent(u.username);
  const database = decodeURIComponent(u.pathname.replace(/^\//, "")) || user;
  const params = [...u.searchParams].filter(([name]) => !/pass/i.test(name)).sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? `?${new URLSearchParams(params)}` : "";
  return `PostgreSQL ${user}@${u.hostname.toLowerCase()}:${u.port || "5432"}/${database}${query}`;
}

/** The folder itself, links followed where it exists: one folder however it is reached. */
function realDir(dir: string): string {
  const resolved = path.resolve(dir);
  try {
    return fs.realpathSync(resolved);
  } catch {
    return resolved;
  }
}
