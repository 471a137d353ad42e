import type { Db } from "@/lib/db";
import { log } from "@/lib/log";
import { ports } from "@/lib/ports";
import { errorFacts } from "@/lib/redact";
import { announceConnections } from "./connection-events";
import { deliverDue, pruneOld } from "./deliver";

// The in-process deliverer, run beside the in-process scheduler (lib/scheduler) in every
// process that publishes. Its own loop, so a slow receiver (up to 10 s) never delays
// publishing. Any number of processes may run it: claims are leases taken by one UPDATE.

const CONNECTIONS_EVERY_MS = 60_000;
const PRUNE_EVERY_MS = 3600_000;

/** One pass: connection events (at most once a minute per process), pruning (hourly), then due deliveries. */
export async function webhookPass(db: Db, clock: () => Date, state: { lastConnections: number; lastPrune: number }) {
  if (Date.now() - state.lastConnections >= CONNECTIONS_EVERY_MS) {
    state.lastConnections = Date.now();
    await announceConnections(db, clock());
  }
  if (Date.now() - state.lastPrune >= PRUNE_EVERY_MS) {
    state.lastPrune = Date.now();
    await pruneOld(db, clock());
  }
  return deliverDue(db, { clock });
}

export function startDeliverer(opts: { db: () => Promise<Db>; pollMs: number; clock?: () => Date }): { stop: () => Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const state = { lastConnections: 0, lastPrune: 0 };
  const loop = () => {
    if (stopped) return;
    running = (async () => {
      try {
        await webhookPass(await opts.db(), opts.clock ?? ports().clock, state);
      } catch (e) {
        // A database outage must not end the loop; the next pass tries again.
        log("error", "webhook pass failed", errorFacts(e));
      }
    })().then(() => {
      if (!stopped) timer = setTimeout(loop, opts.pollMs);
      timer?.unref?.();
    });
  };
  loop();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
