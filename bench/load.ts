import autocannon, { type Result } from "autocannon";
import { openLoop } from "./open-loop";
import { percentile } from "./stats";
import { cpuMs, sampleRss } from "./procs";

export type Target = { url: string; headers: Record<string, string>; body: string; pid: number };

export type Phase = {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
};

/**
 * cpuMsPerReq: the server's CPU time per request during the throughput run. fixedRateRuns:
 * autocannon's `-R 200` runs, which send each connection's share of a second in a burst;
 * fixedRate is the one with the median p99 (R2; of an even number, the higher middle one).
 * evenP99: p99 (ms) at 200 requests a second evenly spaced (bench/open-loop.ts).
 */
export type Measurement = { throughput: Phase; fixedRate: Phase; fixedRateRuns: Phase[]; evenP99: number; peakRssMb: number; cpuMsPerReq: number };

/**
 * How many `-R 200` runs R2 takes the median of, per server. One run's p99 is the 20th
 * slowest of 2,000 answers: a single stall of the machine (the load generator, PostgreSQL and
 * the server share two cores) sets it, so consecutive runs of the same server can read
 * several times apart (docs/performance.md). Its goal is read from medians of several
 * runs.
 */
export const R2_RUNS = Math.max(1, Math.floor(Number(process.env.BENCH_R2_RUNS) || 5));

export function run(t: Target, opts: { connections: number; duration: number; overallRate?: number }): Promise<Result> {
  return Promise.resolve(autocannon({ url: t.url, method: "POST", headers: t.headers, body: t.body, timeout: 10, ...opts }));
}

export const phase = (r: Result): Phase => ({
  reqPerSec: Math.round(r["2xx"] / r.duration),
  p50: r.latency.p50,
  p99: r.latency.p99,
  requests: r.requests.total,
  non2xx: r.non2xx,
  errors: r.errors,
  timeouts: r.timeouts,
  statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)])),
});

/**
 * Warm-up (not counted), then the R1 throughput run (50 connections) and `fixedRateRuns` R2
 * runs at a fixed 200 req/s (latencies corrected for coordinated omission); RSS (R7) sampled
 * throughout.
 */
export async function measure(t: Target, durationS: number, log: (s: string) => void, fixedRateRuns = 1): Promise<Measurement> {
  log(`    warm-up 3 s`);
  await run(t, { connections: 50, duration: 3 });
  const rss = sampleRss(t.pid);
  try {
    log(`    throughput: 50 connections, ${durationS} s`);
    const cpu0 = cpuMs(t.pid);
    const throughput = phase(await run(t, { connections: 50, duration: durationS }));
    const cpuMsPerReq = Math.round((100 * (cpuMs(t.pid) - cpu0)) / Math.max(1, throughput.requests)) / 100;
    log(`      ${throughput.reqPerSec} req/s, p99 ${throughput.p99} ms, server CPU ${cpuMsPerReq} ms/request`);
    // R2's `autocannon -R 200` (docs/performance.md), with autocannon's own defaults (10 connections, 10 s).
    const runs: Phase[] = [];
    for (let i = 0; i < fixedRateRuns; i++) {
      log(`    fixed rate: 200 req/s from 10 connections, 10 s (${i + 1} of ${fixedRateRuns})`);
      runs.push(phase(await run(t, { connections: 10, duration: 10, overallRate: 200 })));
      log(`      p50 ${runs[i].p50} ms, p99 ${runs[i].p99} ms`);
    }
    const fixedRate = [...runs].sort((a, b) => a.p99 - b.p99)[Math.floor(runs.length / 2)];
    const even = await openLoop(t.url, t.headers, t.body, 200, 10);
    even.times.sort((a, b) => a - b);
    const evenP99 = even.bad ? NaN : Math.round(100 * percentile(even.times, 99)) / 100;
    log(`      200 req/s evenly spaced: p99 ${evenP99} ms${even.bad ? `, ${even.bad} failed` : ""}`);
    return { throughput, fixedRate, fixedRateRuns: runs, evenP99, peakRssMb: rss.stop(), cpuMsPerReq };
  } finally {
    rss.stop();
  }
}
