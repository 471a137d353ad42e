import fs from "node:fs/promises";
import path from "node:path";
import { config } from "@/lib/core/config";
import { database, type Db } from "@/lib/adapters/db";
import { keepTidy } from "@/lib/adapters/db/housekeeping";
import { databaseIdentity } from "@/lib/adapters/db/identity";
import { keepStatistics } from "@/lib/adapters/db/statistics";
import { ensureOwner } from "@/lib/domain/owner/users";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { privateDataDir } from "@/lib/core/private-dir";

export async function startup() {
  const c = config();
  try {
    const { db, kind } = await database();
    await createOwner(db, c.OWNER_EMAIL, path.join(path.resolve(c.DATA_DIR), OWNER_PASSWORD_FILE));
    log("info", "database ready", { kind, origin: c.origin });
  } catch (e) {
    // Keep serving: requests answer 503 until the database can be reached.
    log("error", "database not ready at start", errorFacts(e));
  }
  // `npm run admin` hands its commands to this process, which holds the database (channel.ts).
  const [{ openChannel }, { answerChannel }] = await Promise.all([import("@/lib/transports/cli/channel"), import("@/lib/transports/cli/commands")]);
  await openChannel(path.resolve(c.DATA_DIR), databaseIdentity(c).id, (req) => answerChannel(req, async () => (await database()).db));
  // Statistics for the planner as tables grow (statistics.ts), in the background.
  keepStatistics(database, {
    analyzed: (tables) => log("info", "statistics gathered", { tables }),
    failed: (e) => log("warn", "could not gather statistics", errorFacts(e)),
  });
  // Rows that only mattered for a while (housekeeping.ts), in the background.
  keepTidy(async () => (await database()).db, {
    removed: (rows) => log("info", "expired rows removed", rows),
    failed: (e) => log("warn", "could not remove expired rows", errorFacts(e)),
  });
  // Scheduled publishing: the in-process engine, once per process (it retries the database
  // itself on every tick). With Inngest configured, Inngest publishes (SCHEDULER=auto).
  if (c.SCHEDULER === "on" || (c.SCHEDULER === "auto" && !c.inngest)) {
    const { startScheduler } = await import("@/lib/adapters/scheduler");
    startScheduler({ global: true });
  }
}

export const OWNER_PASSWORD_FILE = "owner-password";

/** The owner on an empty database, its password written to `file` and only the file's place printed. */
export async function createOwner(db: Db, email: string, file: string) {
  let unwritable: unknown;
  const keep = (password: string) =>
    keepOwnerPassword(file, password).catch((e) => {
      unwritable = e;
      throw e;
    });
  const owner = await ensureOwner(db, email, keep).catch((e) => {
    if (unwritable === undefined) throw e;
    log("error", "owner not created: its password could not be written", { file, ...errorFacts(unwritable) });
    return null;
  });
  if (!owner) return;
  // Where the password is, never the password: output ends up in collected logs.
  process.stdout.write(
    `\n  Owner account created (creator plan):\n    e-mail:   ${owner.email}\n    password: in ${file} (readable by this user only)\n` +
      `  Get an API token:  npm run admin -- issue-token --email ${owner.email}\n\n`,
  );
}

/**
 * The new owner's password, in a file only this user may read. A file left from an earlier
 * database goes first: created afresh, it cannot be a link elsewhere or keep looser rights.
 */
async function keepOwnerPassword(file: string, password: string) {
  privateDataDir(path.dirname(file));
  await fs.rm(file, { force: true });
  await fs.writeFile(file, `${password}\n`, { flag: "wx", mode: 0o600 });
}
