import { rssMb, sleep } from "./procs";
import { startWhole, type Store } from "./servers";
import { median } from "./stats";

// R8 (`npm start` on a built app to the first 200) and R7 idle (RSS of the server's process
// tree once it has started and served a little): figures that hold up on a busy machine,
// unlike req/s. Each start is a new `node server.mjs` on the same store.

export type StartFigures = {
  /** Milliseconds from spawn to the first 200 of GET /api/v1, one per start (the first on a fresh store). */
  startsMs: number[];
  /** Median of the starts after the first (a restart: the usual case), or the only one. */
  restartMs: number;
  /** RSS of the process tree after start and a fixed bit of traffic, then `idleS` seconds idle. */
  idleRssMb: number;
  /**
   * The same after `settleS` seconds idle: V8's memory reducer returns memory to the system
   * only well after the traffic stops (docs/performance.md, "Memory and start-up"), so this
   * is what an idle server holds.
   */
  settledRssMb: number;
};

async function get200(url: string) {
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
}

/**
 * Starts the built server `starts` times on `store` (each stopped before the next), timing
 * each start to its first 200, and measures idle RSS on the last one. `requests` is what a
 * client does after start-up (the first request of each route loads its code).
 */
export async function measureStart(
  store: Store,
  port: number,
  tmp: string,
  opts: { starts: number; idleS: number; settleS: number; requests: (base: string) => Promise<void> },
  log: (s: string) => void,
): Promise<StartFigures> {
  const startsMs: number[] = [];
  let idleRssMb = 0;
  let settledRssMb = 0;
  for (let i = 0; i < opts.starts; i++) {
    const t0 = performance.now();
    // startWhole polls GET /api/v1 every 250 ms until it answers; then one more GET must be a 200.
    const s = await startWhole(store, port, tmp, 50);
    await get200(s.url);
    startsMs.push(Math.round(performance.now() - t0));
    log(`    start ${i + 1}: first 200 after ${startsMs[i]} ms`);
    if (i === opts.starts - 1) {
      await opts.requests(s.url);
      await sleep(opts.idleS * 1000);
      idleRssMb = rssMb(s.proc.pid);
      await sleep(Math.max(0, opts.settleS - opts.idleS) * 1000);
      settledRssMb = rssMb(s.proc.pid);
      log(`    idle RSS ${idleRssMb} MB after ${opts.idleS} s, ${settledRssMb} MB after ${opts.settleS} s`);
    }
    await s.proc.stop();
  }
  const later = startsMs.slice(1);
  return { startsMs, restartMs: Math.round(median(later.length ? later : startsMs)), idleRssMb, settledRssMb };
}
