import fs from "node:fs";
import path from "node:path";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";

// DATA_DIR holds the embedded database (whose WAL carries every value written: password
// hashes, webhook secrets), the sign-in secret and the first owner's password: no other local
// user may read any of it, nor write the settings PostgreSQL reads at start. The folder is
// made 0700, which alone keeps everyone else out of everything in it; its files are kept
// private as well (PGlite writes its template's files 0666), so that a copy of the folder or
// a looser folder above it leaks nothing either.

const checked = new Set<string>();

/**
 * Creates `dir` (0700), or closes it when it is open to the group or to others: the folder
 * and everything in it made private, and said once in the log. Checked once per process.
 */
export function privateDataDir(dir: string): void {
  const where = path.resolve(dir);
  if (checked.has(where)) return;
  fs.mkdirSync(where, { recursive: true, mode: 0o700 });
  checked.add(where);
  if (!(fs.statSync(where).mode & 0o077)) return;
  try {
    keepPrivate(fs.realpathSync(where));
    log("warn", "DATA_DIR was open to other users: closed it (0700) and made its files private", { dir: where });
  } catch (e) {
    log("error", "DATA_DIR is open to other users and could not be closed", { dir: where, ...errorFacts(e) });
  }
}

/**
 * Takes the group's and others' rights off `dir` and everything under it (links are left
 * alone: what they point to is not this folder's).
 */
export function keepPrivate(dir: string): void {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink()) return;
  if (st.mode & 0o077) fs.chmodSync(dir, st.mode & 0o700);
  if (!st.isDirectory()) return;
  for (const entry of fs.readdirSync(dir)) keepPrivate(path.join(dir, entry));
}
