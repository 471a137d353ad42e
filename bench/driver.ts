import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/adapters/db";
import { onCleanup } from "./procs";
import { freshStore, tempDir } from "./servers";

// `npm run bench -- driver`: the PostgreSQL client under sustained load, in process. 50
// workers each run two small queries in turn through the server's own client (openDatabase:
// postgres.js, 10 connections, so queries are pipelined on busy connections) for
// BENCH_DRIVER_S seconds; query pairs a second and CPU per pair are printed per 5-second
// window. Unpatched, postgres.js's busy-connection queue kept every dead slot and each
// removal scanned them all, so the later windows were much slower than the first
// (patches/postgres+*.patch, patches/README.md; upstream
// https://github.com/porsager/postgres/issues/747; tests/unit/driver-queue.test.ts; figures in
// docs/performance.md).
const SECONDS = Number(process.env.BENCH_DRIVER_S ?? 30);
const WINDOW_S = 5;

export type DriverWindow = { pairsPerSec: number; cpuMsPerPair: number };
export type DriverResult = { windows: DriverWindow[]; lastOverFirst: number };

export async function benchDriver(pgAdmin: string, log: (s: string) => void): Promise<DriverResult> {
  const store = await freshStore("postgres", tempDir(), pgAdmin);
  const d = await openDatabase({ url: store.DATABASE_URL });
  onCleanup(() => d.close());
  let pairs = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      await d.db.execute(sql`select 1 as a`);
      await d.db.execute(sql`select 2 as b`);
      pairs++;
    }
  };
  log(`driver: 50 workers, two queries each in turn, ${SECONDS} s`);
  const workers = Array.from({ length: 50 }, worker);
  const windows: DriverWindow[] = [];
  for (let t = 0; t < SECONDS; t += WINDOW_S) {
    const cpu0 = process.cpuUsage();
    pairs = 0;
    await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
    const cpu = process.cpuUsage(cpu0);
    const w = { pairsPerSec: Math.round(pairs / WINDOW_S), cpuMsPerPair: Math.round((cpu.user + cpu.system) / 10 / Math.max(1, pairs)) / 100 };
    log(`  ${t}-${t + WINDOW_S} s: ${w.pairsPerSec} pairs/s, ${w.cpuMsPerPair} ms of CPU per pair`);
    windows.push(w);
  }
  stop = true;
  await Promise.all(workers);
  return { windows, lastOverFirst: Math.round((100 * windows.at(-1)!.pairsPerSec) / Math.max(1, windows[0].pairsPerSec)) / 100 };
}

export function printDriverTable(r: DriverResult) {
  const rows = r.windows.map(
    (w, i) => `${String(i * WINDOW_S).padStart(3)}-${String((i + 1) * WINDOW_S).padEnd(4)} s  ${String(w.pairsPerSec).padStart(7)}  ${w.cpuMsPerPair}`,
  );
  process.stdout.write(`\nwindow     pairs/s  CPU ms/pair\n${rows.join("\n")}\nlast window ÷ first: ${r.lastOverFirst.toFixed(2)} (steady: about 1)\n`);
}
