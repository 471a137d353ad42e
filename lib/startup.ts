import { config } from "@/lib/config";
import { database } from "@/lib/db";
import { keepTidy } from "@/lib/db/housekeeping";
import { keepStatistics } from "@/lib/db/statistics";
import { ensureOwner } from "@/lib/domain/accounts";
import { log } from "@/lib/log";
import { errorFacts } from "@/lib/redact";

export async function startup() {
  const c = config();
  try {
    const { db, kind } = await database();
    const owner = await ensureOwner(db, c.OWNER_EMAIL);
    if (owner) {
      // Printed once, on the first start only; it is stored only as a hash.
      process.stdout.write(
        `\n  Owner account created (creator plan):\n    e-mail:   ${owner.email}\n    password: ${owner.password}\n` +
          `  Get an API token:  npm run admin -- issue-token --email ${owner.email}\n\n`,
      );
    }
    log("info", "database ready", { kind, origin: c.origin });
  } catch (e) {
    // Keep serving: requests answer 503 until the database can be reached.
    log("error", "database not ready at start", errorFacts(e));
  }
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
    const { startScheduler } = await import("@/lib/scheduler");
    startScheduler({ global: true });
  }
}
