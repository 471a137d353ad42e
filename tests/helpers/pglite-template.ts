import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@/lib/adapters/db";

// Creating and migrating an embedded database takes seconds; loading a dump of a migrated one
// takes a fraction of that. The first test file of a run that needs one makes the dump (named
// by the migrations it holds, so a new migration makes a new one) and every file after it
// starts from there. Several workers may make it at once: each writes its own file and
// renames it into place, so a reader never sees half of one.

const MIGRATIONS = path.join(process.cwd(), "drizzle", "migrations");

function migrationsHash(): string {
  const h = createHash("sha256");
  for (const f of fs.readdirSync(MIGRATIONS, { recursive: true, encoding: "utf8" }).sort()) {
    const p = path.join(MIGRATIONS, f);
    if (fs.statSync(p).isFile()) h.update(f).update(fs.readFileSync(p));
  }
  return h.digest("hex").slice(0, 16);
}

/** A dump of an embedded database with every migration applied. */
export async function migratedTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `contentio-pglite-${migrationsHash()}.tar`);
  if (!fs.existsSync(file)) {
    const d = await openDatabase({ dataDir: null });
    const client = (d.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir("none");
    await d.close();
    const part = `${file}.${process.pid}.part`;
    fs.writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(part, file);
  }
  return new Blob([fs.readFileSync(file)]);
}
