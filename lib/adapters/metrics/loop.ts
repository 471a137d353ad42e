import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { repeatPasses, type Passes } from "@/lib/core/passes";
import { ports } from "@/lib/adapters/ports";
import { errorFacts } from "@/lib/core/redact";
import { collectDue, nextRead } from "@/lib/domain/metrics/collect";
import { checkReceipts, nextReceipt } from "@/lib/domain/publishing/receipts";
import { skipIdlePasses } from "@/lib/adapters/scheduler/skip-idle-passes";

// The in-process collector of posts' engagement and receipts (published posts read back), beside the in-process scheduler in every
// process that publishes: a loop of its own, so slow network reads never delay publishing.
// Any number of processes may run it: each read is claimed once (lib/domain/metrics/collect.ts).

const earliest = (a: Date | null, b: Date | null) => (a && b ? (a < b ? a : b) : (a ?? b));

export function startCollector(opts: { db: () => Promise<Db>; pollMs: number; clock?: () => Date }): Passes {
  // With an injected clock (tests), every pass is full.
  const gate = opts.clock ? undefined : skipIdlePasses();
  return repeatPasses(async () => {
    try {
      const db = await opts.db();
      const p = ports();
      // The earlier of the next engagement read and the next read back (a receipt).
      const next = async () => earliest(await nextRead(db, p.config().METRICS_AFTER), await nextReceipt(db, p.config().RECEIPTS_AFTER));
      if (!gate || (await gate.due(db, next))) {
        const w = { clock: opts.clock ?? p.clock, platforms: p.platforms, config: p.config };
        await checkReceipts(db, w);
        await collectDue(db, w);
        await gate?.passed(db, next);
      }
    } catch (e) {
      // A database outage must not end the loop; the next pass tries again.
      log("error", "metrics pass failed", errorFacts(e));
    }
    return gate?.wait(opts.pollMs) ?? opts.pollMs;
  });
}
