import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { repeatPasses, type Passes } from "@/lib/core/passes";
import { ports } from "@/lib/adapters/ports";
import { errorFacts } from "@/lib/core/redact";
import { announceConnections } from "../../domain/webhooks/connection-events";
import { skipIdlePasses, type PassGate } from "@/lib/adapters/scheduler/skip-idle-passes";
import { deliverDue, nextDelivery, pruneOld, type DeliverResult } from "./deliver";

// The in-process deliverer, run beside the in-process scheduler (lib/adapters/scheduler) in every
// process that publishes. Its own loop, so a slow receiver (up to 10 s) never delays
// publishing. Any number of processes may run it: claims are leases taken by one UPDATE.

const CONNECTIONS_EVERY_MS = 60_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * One pass: connection events (at most once a minute per process), pruning (hourly), then due
 * deliveries, if `gate` finds any due (lib/adapters/scheduler/skip-idle-passes.ts).
 */
export async function webhookPass(
  db: Db,
  clock: () => Date,
  state: { lastConnections: number; lastPrune: number },
  gate?: PassGate,
): Promise<DeliverResult | null> {
  if (Date.now() - state.lastConnections >= CONNECTIONS_EVERY_MS) {
    state.lastConnections = Date.now();
    await announceConnections(db, clock());
  }
  if (Date.now() - state.lastPrune >= PRUNE_EVERY_MS) {
    state.lastPrune = Date.now();
    await pruneOld(db, clock());
  }
  const next = () => nextDelivery(db);
  if (gate && !(await gate.due(db, next))) return null;
  const r = await deliverDue(db, { clock });
  await gate?.passed(db, next);
  return r;
}

export function startDeliverer(opts: { db: () => Promise<Db>; pollMs: number; clock?: () => Date }): Passes {
  const state = { lastConnections: 0, lastPrune: 0 };
  // With an injected clock (tests), every pass is full.
  const gate = opts.clock ? undefined : skipIdlePasses();
  return repeatPasses(async () => {
    try {
      await webhookPass(await opts.db(), opts.clock ?? ports().clock, state, gate);
    } catch (e) {
      // A database outage must not end the loop; the next pass tries again.
      log("error", "webhook pass failed", errorFacts(e));
    }
    return gate?.wait(opts.pollMs) ?? opts.pollMs;
  });
}
