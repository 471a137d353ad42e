import { config } from "@/lib/core/config";
import { database, migrationsApplied } from "@/lib/adapters/db";
import { schedulerRunning } from "@/lib/adapters/scheduler";
import { withTimeout } from "@/lib/core/with-timeout";

// What an orchestrator or a load balancer asks, unauthenticated: is the process alive
// (/healthz), and can it serve (/readyz). Cheap, and revealing nothing but the state of each
// check: no versions, no error texts, no configuration.

const NO_STORE = { "Cache-Control": "no-store" };
/** A check that does not answer within this is failing: a probe must not hang with the database. */
const CHECK_MS = 2000;

export const alive = () => Response.json({ status: "ok" }, { headers: NO_STORE });

type Checks = { database: "ok" | "unreachable"; migrations: "applied" | "pending" | "unknown"; scheduler: "running" | "off" | "stopped" };

async function databaseChecks(): Promise<Pick<Checks, "database" | "migrations">> {
  try {
    const { db } = await database();
    return { database: "ok", migrations: (await migrationsApplied(db)) ? "applied" : "pending" };
  } catch {
    return { database: "unreachable", migrations: "unknown" };
  }
}

export async function readiness(): Promise<Response> {
  const c = config();
  // Deliberately off: SCHEDULER=off, or Inngest publishes (SCHEDULER=auto with Inngest set up).
  const off = c.SCHEDULER === "off" || (c.SCHEDULER === "auto" && !!c.inngest);
  const checks: Checks = {
    ...(await withTimeout(databaseChecks(), CHECK_MS).catch(() => ({ database: "unreachable", migrations: "unknown" }) as const)),
    scheduler: off ? "off" : schedulerRunning() ? "running" : "stopped",
  };
  const ready = checks.database === "ok" && checks.migrations === "applied" && checks.scheduler !== "stopped";
  return Response.json({ status: ready ? "ready" : "not_ready", checks }, { status: ready ? 200 : 503, headers: NO_STORE });
}
