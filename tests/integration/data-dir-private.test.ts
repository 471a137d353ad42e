import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, useDatabase as installDatabase } from "@/lib/adapters/db";
import { rowsOf } from "@/lib/adapters/db/rows";
import { createOwner, OWNER_PASSWORD_FILE } from "@/lib/core/startup";
import { authSecret } from "@/lib/transports/auth/secret";
import { configured, withConfig } from "../helpers/env";

// The embedded database holds argon2 hashes, tokens' hashes and webhook secrets, and its
// WAL holds every value written: another local user must read none of DATA_DIR, nor write
// the settings PostgreSQL reads at start. Checked as that other user (`nobody`, through
// util-linux's runuser), on a fresh folder and on one an earlier version left open.
// The embedded database only: the postgres project has nothing more to check here.

withConfig({ LOG_LEVEL: "info" });
const root = process.getuid?.() === 0;
// A parent every user may enter, as a home or /srv folder is: only DATA_DIR's own rights keep them out.
const parent = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-private-"));
fs.chmodSync(parent, 0o755);
let output = "";

beforeAll(() => {
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    output += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterAll(() => {
  vi.restoreAllMocks();
  fs.rmSync(parent, { recursive: true, force: true });
});

/** Runs `sh -c script` as `nobody`: whether it succeeded. */
const asNobody = (script: string) => spawnSync("runuser", ["-u", "nobody", "--", "sh", "-c", script], { stdio: "ignore" }).status === 0;
const q = (p: string) => `'${p.replaceAll("'", "'\\''")}'`;

/** What another local user can do to the folder's secrets. */
function exposure(dir: string) {
  const wal = path.join(dir, "pg_wal");
  return {
    listsFolder: asNobody(`ls ${q(dir)}`),
    readsWal: asNobody(`cat ${q(wal)}/0000* > /dev/null`),
    readsAuthSecret: asNobody(`cat ${q(path.join(dir, "auth-secret"))}`),
    readsOwnerPassword: asNobody(`cat ${q(path.join(dir, OWNER_PASSWORD_FILE))}`),
    // Opened for writing, nothing written: the check must not change what it checks.
    writesSettings: asNobody(`: >> ${q(path.join(dir, "postgresql.auto.conf"))}`),
  };
}
const NONE = { listsFolder: false, readsWal: false, readsAuthSecret: false, readsOwnerPassword: false, writesSettings: false };

/** Every file and folder under `dir` (itself included) with rights for others or the group. */
function openEntries(dir: string): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) found.push(`${(st.mode & 0o777).toString(8)} ${path.relative(dir, p) || "."}`);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return found;
}

/** The service's first start in `dir`: the database, the owner and its password, the sign-in secret. */
async function firstStart(dir: string) {
  const d = await openDatabase({ dataDir: dir });
  try {
    await createOwner(d.db, "owner@example.com", path.join(dir, OWNER_PASSWORD_FILE));
    await configured({ DATA_DIR: dir, AUTH_SECRET: undefined }, () => authSecret());
  } finally {
    await d.close();
    installDatabase(undefined);
  }
}

describe.runIf(root && !process.env.DATABASE_URL)("DATA_DIR, as another local user sees it", () => {
  it("the check itself: nobody reads a file that is open to it", () => {
    const file = path.join(parent, "open-file");
    fs.writeFileSync(file, "readable");
    // Whatever the process's umask (an embedded database opened before in this worker sets 077).
    fs.chmodSync(file, 0o644);
    expect(asNobody(`cat ${q(file)}`)).toBe(true);
  });

  it("a fresh one is 0700 with private files: nobody reads the WAL, the secrets or the password, nor writes the settings", async () => {
    const dir = path.join(parent, "fresh");
    output = "";
    await firstStart(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(openEntries(dir)).toEqual([]);
    expect(fs.statSync(path.join(dir, "auth-secret")).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, OWNER_PASSWORD_FILE)).mode & 0o777).toBe(0o600);
    expect(exposure(dir)).toEqual(NONE);
    expect(output).not.toContain("open to other users");
  });

  it("one an earlier version left open is closed at start, saying so once", async () => {
    const dir = path.join(parent, "left-open");
    // As it was left: the folder 0755, PGlite's own files 0666, the secrets readable by all.
    const umask = process.umask(0o022);
    try {
      fs.mkdirSync(dir, { mode: 0o755 });
      const old = await PGlite.create(dir);
      await old.query("create table kept (secret text)");
      await old.query("insert into kept values ('whsec_left_in_the_wal')");
      await old.close();
      fs.writeFileSync(path.join(dir, "auth-secret"), "an-old-secret", { mode: 0o644 });
      fs.writeFileSync(path.join(dir, OWNER_PASSWORD_FILE), "an old password\n", { mode: 0o644 });
    } finally {
      process.umask(umask);
    }
    expect(exposure(dir)).toEqual({ listsFolder: true, readsWal: true, readsAuthSecret: true, readsOwnerPassword: true, writesSettings: true });

    output = "";
    await firstStart(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(openEntries(dir)).toEqual([]);
    expect(exposure(dir)).toEqual(NONE);
    const said = output.split("\n").filter((l) => l.includes("open to other users"));
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0])).toMatchObject({ level: "warn", dir });
    // The database itself is intact.
    const d = await openDatabase({ dataDir: dir });
    try {
      expect(rowsOf(await d.db.execute(sql`select secret from kept`))).toEqual([{ secret: "whsec_left_in_the_wal" }]);
    } finally {
      await d.close();
      installDatabase(undefined);
    }
  });
});
