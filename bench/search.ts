import autocannon from "autocannon";
import { openLoop } from "./open-loop";
import { median, percentile as pct } from "./stats";
import { sleep } from "./procs";
import { mark } from "./report";
import { COUNTS, seedItems } from "./search-seed";
import { freePort, freshStore, seed, startWhole, tempDir, type Mode } from "./servers";

// R4 of docs/performance.md: search_content p95 with 100,000 items for one user <= 3 x fetch_item
// p95 on the same server. p95 is a latency: R4 is measured at a fixed arrival rate, 200
// requests a second evenly spaced (bench/open-loop.ts), which the server serves without a
// standing queue, so p95 is what a caller waits. Beside it, 10 connections each sending its
// next request on an answer: then every request waits behind up to nine others and p95 is
// about 10 / throughput, a ratio of costs more than of latencies (what this bench measured
// alone until that was seen). One 10 s run's p95 is the 100th slowest of 2,000 answers, so one
// stall of the machine can set it: the fixed-rate runs go in BENCH_SEARCH_RUNS rounds (3),
// each round fetch_item then every search, and each p95 is the median of its rounds.
export const R4_GOAL = 3;
export const SEARCH_RUNS = Math.max(1, Math.floor(Number(process.env.BENCH_SEARCH_RUNS) || 3));
const CONNECTIONS = 10;
const RATE = Number(process.env.BENCH_SEARCH_RATE ?? 200);
const DURATION_S = Number(process.env.BENCH_SEARCH_S ?? 10);

const CASES: Array<{ name: string; input: Record<string, unknown> }> = [
  { name: "rare word", input: { query: "kubernetes" } },
  { name: "common word", input: { query: "customers" } },
  { name: "phrase", input: { query: '"product launch"' } },
  { name: "word in no item", input: { query: "zeppelin" } },
  { name: "no query, posts", input: { types: ["post"] } },
];

export type Latency = { p50: number; p95: number; reqPerSec: number; bad: number };
/** One request kind at the fixed rate (`steady`, R4: medians of the rounds, whose p95s are `runs`) and unthrottled (`busy`). */
export type Both = { steady: Latency & { runs: number[] }; busy: Latency };
export type SearchCase = Both & { name: string; query: string; matches: number | null; ratio: number; busyRatio: number };
export type SearchResult = { mode: Mode; items: number; fetch: Both; cases: SearchCase[]; r4: number; r4Busy: number; pass: boolean };

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/**
 * p50/p95 over every request (autocannon's summary has no p95), after a 2 s warm-up; a request
 * that failed or timed out counts as the timeout. With `rate`, requests come at that many a
 * second, evenly spaced (bench/open-loop.ts); without, from 10 connections each sending its
 * next request on an answer.
 */
async function latency(url: string, headers: Record<string, string>, body: string, rate?: number, warm = true): Promise<Latency> {
  const opts = { url, method: "POST", headers, body, timeout: 10, connections: CONNECTIONS };
  if (warm) await autocannon({ ...opts, duration: 2 });
  let times: number[] = [];
  let bad: number;
  if (rate) {
    ({ times, bad } = await openLoop(url, headers, body, rate, DURATION_S));
    for (let i = 0; i < bad; i++) times.push(opts.timeout * 1000);
  } else {
    const run = autocannon({ ...opts, duration: DURATION_S });
    run.on("response", (_client, _status, _bytes, ms) => times.push(ms));
    const r = await run;
    for (let i = 0; i < r.errors; i++) times.push(opts.timeout * 1000);
    bad = r.non2xx + r.errors;
  }
  times.sort((a, b) => a - b);
  return { p50: round(pct(times, 50)), p95: round(pct(times, 95)), reqPerSec: Math.round((times.length - bad) / DURATION_S), bad };
}

/** The medians of several runs of one request kind (bad answers summed), with each run's p95. */
function medianOf(runs: Latency[]): Both["steady"] {
  const m = (f: (l: Latency) => number) => median(runs.map(f));
  return {
    p50: round(m((l) => l.p50)),
    p95: round(m((l) => l.p95)),
    reqPerSec: Math.round(m((l) => l.reqPerSec)),
    bad: runs.reduce((n, l) => n + l.bad, 0),
    runs: runs.map((l) => l.p95),
  };
}

/** The mean of two unthrottled measurements of fetch_item (before and after the searches: the machine's load drifts). */
function mean(a: Latency, b: Latency): Latency {
  return { p50: round((a.p50 + b.p50) / 2), p95: round((a.p95 + b.p95) / 2), reqPerSec: Math.round((a.reqPerSec + b.reqPerSec) / 2), bad: a.bad + b.bad };
}

export async function benchSearch(mode: Mode, pgAdminUrl: string, log: (s: string) => void): Promise<SearchResult> {
  const tmp = tempDir();
  const store = await freshStore(mode, tmp, pgAdminUrl);
  const port = await freePort();
  const { userId, token } = await seed(store, `http://127.0.0.1:${port}`);
  const items = Object.values(COUNTS).reduce((a, b) => a + b, 0);
  log(`${mode}: seeding ${items} items`);
  const t0 = Date.now();
  const queries = CASES.map((c) => c.input.query).filter((q): q is string => typeof q === "string");
  const { postId, matches } = await seedItems(store, userId, queries);
  log(`${mode}: seeded in ${Math.round((Date.now() - t0) / 1000)} s; matches ${JSON.stringify(matches)}`);

  const server = await startWhole(store, port, tmp);
  // On PGlite the server gathers the planner's statistics in the background at start.
  if (mode === "pglite") await sleep(5000);
  try {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const fetchBody = JSON.stringify({ id: postId, type: "post" });
    const kinds = [{ name: "fetch_item", url: `${server.url}/fetch_item`, body: fetchBody }].concat(
      CASES.map((c) => ({ name: c.name, url: `${server.url}/search_content`, body: JSON.stringify(c.input) })),
    );
    const steady: Latency[][] = kinds.map(() => []);
    for (let round = 1; round <= SEARCH_RUNS; round++) {
      log(`${mode}: round ${round} of ${SEARCH_RUNS} at ${RATE} req/s, fetch_item then each search`);
      for (const [i, k] of kinds.entries()) steady[i].push(await latency(k.url, headers, k.body, RATE, round === 1));
      log(`    p95 ${kinds.map((k, i) => `${k.name} ${steady[i][round - 1].p95}`).join(", ")} ms`);
    }
    log(`${mode}: unthrottled, fetch_item, each search, fetch_item again`);
    const busy: Latency[] = [];
    for (const k of kinds) busy.push(await latency(k.url, headers, k.body));
    const fetch: Both = { steady: medianOf(steady[0]), busy: mean(busy[0], await latency(kinds[0].url, headers, kinds[0].body)) };
    const measured = CASES.map((c, i) => ({ ...c, steady: medianOf(steady[i + 1]), busy: busy[i + 1] }));
    const cases = measured.map(({ input, ...m }) => {
      const query = typeof input.query === "string" ? input.query : "";
      return {
        ...m,
        query: query || JSON.stringify(input),
        matches: query ? matches[query] : null,
        ratio: round(m.steady.p95 / fetch.steady.p95),
        busyRatio: round(m.busy.p95 / fetch.busy.p95),
      };
    });
    const r4 = Math.max(...cases.map((c) => c.ratio));
    const bad = [fetch, ...cases].reduce((n, b) => n + b.steady.bad + b.busy.bad, 0);
    return { mode, items, fetch, cases, r4, r4Busy: Math.max(...cases.map((c) => c.busyRatio)), pass: r4 <= R4_GOAL && bad === 0 };
  } finally {
    await server.proc.stop();
  }
}

/** One line per request kind, R4 (the worst ratio at the fixed rate) beside its goal. */
export function printSearchTable(rows: SearchResult[]) {
  const out = [
    "",
    `R4: search_content p95 / fetch_item p95 at ${RATE} req/s, medians of ${SEARCH_RUNS} ` +
      `rounds (and unthrottled, ${CONNECTIONS} connections), ${DURATION_S} s each`,
  ];
  const fig = (b: Both) => `p50 ${b.steady.p50} ms, p95 ${b.steady.p95} ms | unthrottled p95 ${b.busy.p95} ms, ${b.busy.reqPerSec} req/s`;
  for (const r of rows) {
    out.push(`${r.mode} (${r.items} items): fetch_item ${fig(r.fetch)}; p95 of each round ${r.fetch.steady.runs.join(", ")} ms`);
    for (const c of r.cases) {
      const m = c.matches === null ? "" : `, ${c.matches} matches`;
      out.push(`  ${c.name.padEnd(16)} ${c.query.padEnd(18)} ${fig(c)}${m}: ${c.ratio}x (unthrottled ${c.busyRatio}x); rounds ${c.steady.runs.join(", ")} ms`);
    }
    const bad = [r.fetch, ...r.cases].reduce((n, b) => n + b.steady.bad + b.busy.bad, 0);
    out.push(`  R4 ${r.r4} (goal <= ${R4_GOAL}) ${mark(r.pass)}; unthrottled ${r.r4Busy}${bad ? `; ${bad} non-2xx or errors` : ""}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}
