import autocannon, { type Request, type Result } from "autocannon";
import { BODY, jsonPost, mcpToolCall } from "./http";
import { rssMb } from "./procs";
import { mark } from "./report";
import { freePort, freshStore, seed, startWhole, tempDir, type Mode } from "./servers";

// S8 of docs/performance.md: REST and MCP mixed, first under load at 70 % of the whole stack's
// measured maximum for 5 minutes (BENCH_LOAD_MINUTES), then the soak at 30 % of it for 30
// minutes (BENCH_SOAK_MINUTES), with the RSS of the server's process tree sampled every 10 s.
// In both, every answer must be 2xx and no socket may fail; in the soak, the RSS once warm
// (after 2 minutes) against the last sample shows whether memory creeps.
export const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
export const LOAD_MINUTES = Number(process.env.BENCH_LOAD_MINUTES ?? 5);
const MAX_S = Number(process.env.BENCH_SOAK_MAX_S ?? 10);
const LOAD_SHARE = 0.7;
const SOAK_SHARE = 0.3;
const WARM_S = 120;
const SAMPLE_MS = 10_000;
// Enough connections that a fixed rate never waits for a free one (rate × latency): the
// soak's rate needs few; under load, as many as the maximum was measured with.
const SOAK_CONNECTIONS = 16;
const MAX_CONNECTIONS = 50;
const GOAL = { growthPct: 10 };

type Kind = "fetch_item" | "mcp fetch_item" | "search_content" | "create_draft" | "update_draft";
type Counts = Record<Kind, Record<string, number>>;

/** One phase at a fixed rate: what was sent, and every answer that was not 2xx. */
type RatePhase = {
  rate: number;
  seconds: number;
  total: number;
  socketErrors: number;
  timeouts: number;
  unexpected: number;
  byKind: Counts;
  p50: number;
  p99: number;
  /** RSS of the server's process tree, [seconds into the phase, MB], every 10 s. */
  rss: Array<[number, number]>;
  peakRssMb: number;
};

export type SoakResult = {
  mode: Mode;
  maxReqPerSec: number;
  /** Non-2xx and socket errors (timeouts) of the 50-connection maximum run: saturation, not S8. */
  maxRunBad: number;
  /** 70 % of the maximum (absent when BENCH_LOAD_MINUTES is 0). */
  load?: RatePhase;
  soak: RatePhase;
  warmRssMb: number;
  lastRssMb: number;
  growthPct: number;
  pass: boolean;
};

/**
 * One pass of the sequence each connection repeats: two reads (REST and MCP), a search, and
 * a new draft that is then edited (its id carried in the connection's context). The search
 * word is in every draft the soak writes, so with statistics each search reads the few most
 * recent of them. A word in only one item reads every draft the soak wrote (the planner
 * estimates it in 0.5 % of them and walks the caller's items: docs/performance.md, "Search").
 * Without statistics any search would read them all: the server gathers them as its tables
 * grow (lib/adapters/db/statistics.ts), also where autovacuum is off.
 */
function sequence(api: string, headers: Record<string, string>, readId: string, counts: Counts): Request[] {
  const count = (kind: Kind) => (status: number | string) => {
    counts[kind][status] = (counts[kind][status] ?? 0) + 1;
  };
  // MCP reports a failed call inside a 200: a JSON-RPC error, or a tool result with isError.
  const countMcp = (status: number, body: string) => {
    let failed = false;
    try {
      const answer = JSON.parse(body);
      failed = status === 200 && Boolean(answer.error || answer.result?.isError);
    } catch {
      failed = status === 200; // not the JSON answer the stateless endpoint gives
    }
    count("mcp fetch_item")(failed ? "error in 200" : status);
  };
  const post = (kind: Kind, path: string, body: string, extra = {}): Request => ({
    method: "POST",
    path,
    headers: { ...headers, ...extra },
    body,
    onResponse: count(kind),
  });
  const read = JSON.stringify({ id: readId, type: "post" });
  const mcpCall = mcpToolCall("fetch_item", JSON.parse(read));
  return [
    post("fetch_item", `${api}/fetch_item`, read),
    { ...post("mcp fetch_item", "/mcp", mcpCall.body, mcpCall.headers), onResponse: countMcp },
    post("search_content", `${api}/search_content`, JSON.stringify({ query: "soak", limit: 10 })),
    {
      ...post("create_draft", `${api}/create_draft`, JSON.stringify({ type: "post", body: "A soak draft, written to be edited." })),
      onResponse: (status, body, context) => {
        count("create_draft")(status);
        context.draftId = status === 200 ? JSON.parse(body).id : undefined;
      },
    },
    {
      ...post("update_draft", `${api}/update_draft`, ""),
      setupRequest: (req, context) => ({ ...req, body: JSON.stringify({ type: "post", id: context.draftId, body: "A soak draft, edited once." }) }),
    },
  ];
}

const emptyCounts = (): Counts => ({ fetch_item: {}, "mcp fetch_item": {}, search_content: {}, create_draft: {}, update_draft: {} });

function load(origin: string, requests: Request[], opts: { connections: number; duration: number; overallRate?: number }): Promise<Result> {
  return Promise.resolve(autocannon({ url: origin, requests, timeout: 10, ...opts }));
}

/** Sends the mix at a fixed rate for a number of minutes, sampling RSS and counting every answer. */
async function phase(
  run: { origin: string; requests: (counts: Counts) => Request[]; pid: number },
  name: string,
  opts: { rate: number; minutes: number; connections: number },
  log: (s: string) => void,
): Promise<RatePhase> {
  const rss: Array<[number, number]> = [];
  const t0 = Date.now();
  const sample = () => rss.push([Math.round((Date.now() - t0) / 1000), rssMb(run.pid)]);
  sample();
  const timer = setInterval(() => {
    sample();
    const [s, mb] = rss[rss.length - 1];
    if (s % 60 < SAMPLE_MS / 1000) log(`  ${name} ${Math.round(s / 60)} min: RSS ${mb} MB`);
  }, SAMPLE_MS);
  const counts = emptyCounts();
  let r: Result;
  try {
    r = await load(run.origin, run.requests(counts), { connections: opts.connections, duration: opts.minutes * 60, overallRate: opts.rate });
  } finally {
    clearInterval(timer);
  }
  sample();
  const unexpected = Object.values(counts)
    .flatMap((byStatus) => Object.entries(byStatus))
    .reduce((n, [status, c]) => n + (/^2\d\d$/.test(status) ? 0 : c), 0);
  return {
    rate: opts.rate,
    seconds: r.duration,
    total: r.requests.total,
    socketErrors: r.errors,
    timeouts: r.timeouts,
    unexpected: Math.max(unexpected, r.non2xx),
    byKind: counts,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rss,
    peakRssMb: Math.max(...rss.map(([, mb]) => mb)),
  };
}

// A fixed rate the server could not keep is not the load asked for: the phase fails too.
const KEPT = 0.95;
const sentPerSec = (p: RatePhase) => Math.round(p.total / p.seconds);
const kept = (p: RatePhase) => sentPerSec(p) >= KEPT * p.rate;
const clean = (p: RatePhase) => p.socketErrors === 0 && p.unexpected === 0 && kept(p);

export async function benchSoak(mode: Mode, pgAdmin: string, log: (s: string) => void): Promise<SoakResult> {
  const tmp = tempDir();
  const store = await freshStore(mode, tmp, pgAdmin);
  const port = await freePort();
  const { token } = await seed(store, `http://127.0.0.1:${port}`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const whole = await startWhole(store, port, tmp);
  try {
    const origin = `http://127.0.0.1:${port}`;
    const api = new URL(whole.url).pathname;
    const created = JSON.parse(await jsonPost(`${whole.url}/create_draft`, JSON.stringify({ type: "post", body: BODY }), headers));
    const run = { origin, requests: (counts: Counts) => sequence(api, headers, created.id, counts), pid: whole.proc.pid };

    log(`${mode} S8: warm-up 3 s, then the maximum of the mix (${MAX_CONNECTIONS} connections, ${MAX_S} s)`);
    await load(origin, run.requests(emptyCounts()), { connections: MAX_CONNECTIONS, duration: 3 });
    const max = await load(origin, run.requests(emptyCounts()), { connections: MAX_CONNECTIONS, duration: MAX_S });
    const maxReqPerSec = Math.round(max["2xx"] / max.duration);
    const at = (share: number) => Math.max(1, Math.round(share * maxReqPerSec));
    log(`  maximum ${maxReqPerSec} req/s (${max.non2xx} non-2xx, ${max.errors} errors)`);

    let loadPhase: RatePhase | undefined;
    if (LOAD_MINUTES > 0) {
      log(`  load at ${at(LOAD_SHARE)} req/s for ${LOAD_MINUTES} min`);
      loadPhase = await phase(run, "load", { rate: at(LOAD_SHARE), minutes: LOAD_MINUTES, connections: MAX_CONNECTIONS }, log);
    }
    log(`  soak at ${at(SOAK_SHARE)} req/s for ${SOAK_MINUTES} min`);
    const soak = await phase(run, "soak", { rate: at(SOAK_SHARE), minutes: SOAK_MINUTES, connections: SOAK_CONNECTIONS }, log);

    const warm = soak.rss.find(([s]) => s >= WARM_S) ?? soak.rss[soak.rss.length - 1];
    const last = soak.rss[soak.rss.length - 1];
    const growthPct = Math.round((1000 * (last[1] - warm[1])) / warm[1]) / 10;
    return {
      mode,
      maxReqPerSec,
      maxRunBad: max.non2xx + max.errors,
      load: loadPhase,
      soak,
      warmRssMb: warm[1],
      lastRssMb: last[1],
      growthPct,
      pass: (!loadPhase || clean(loadPhase)) && clean(soak) && growthPct < GOAL.growthPct,
    };
  } finally {
    await whole.proc.stop();
  }
}

function phaseLines(name: string, p: RatePhase): string[] {
  const kinds = Object.entries(p.byKind).map(
    ([k, byStatus]) =>
      `${k} ${Object.entries(byStatus)
        .map(([s, c]) => `${c}×${s}`)
        .join(" ")}`,
  );
  return [
    `  ${name}: ${p.rate} req/s for ${p.seconds < 60 ? `${p.seconds} s` : `${Math.round(p.seconds / 60)} min`}, ${p.total} requests (${kinds.join("; ")})`,
    `    rate kept      ${sentPerSec(p)} req/s sent (goal >= ${KEPT * 100} % of ${p.rate}) ${mark(kept(p))}`,
    `    socket errors  ${p.socketErrors} (goal 0) ${mark(p.socketErrors === 0)}${p.timeouts ? `, ${p.timeouts} of them timeouts` : ""}`,
    `    unexpected non-2xx ${p.unexpected} (goal 0) ${mark(p.unexpected === 0)}`,
    `    latency        p50 ${p.p50} ms, p99 ${p.p99} ms; peak RSS ${p.peakRssMb} MB`,
  ];
}

export function printSoakTable(rows: SoakResult[]) {
  const out = [""];
  for (const r of rows) {
    out.push(
      `S8 ${r.mode}: measured maximum of the mix ${r.maxReqPerSec} req/s` +
        (r.maxRunBad ? ` (the saturated maximum run had ${r.maxRunBad} non-2xx or socket errors)` : ""),
      ...(r.load ? phaseLines(`load at ${LOAD_SHARE * 100} %`, r.load) : []),
      ...phaseLines(`soak at ${SOAK_SHARE * 100} %`, r.soak),
      `    RSS            warm (${WARM_S / 60} min) ${r.warmRssMb} MB, last ${r.lastRssMb} MB: ` +
        `growth ${r.growthPct} % (goal < ${GOAL.growthPct} %) ${mark(r.growthPct < GOAL.growthPct)}`,
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
}
