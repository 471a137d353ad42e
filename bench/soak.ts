import autocannon, { type Request, type Result } from "autocannon";
import { BODY, jsonPost, mcpToolCall } from "./http";
import { rssMb } from "./procs";
import { freePort, freshStore, seed, startWhole, tempDir, type Mode } from "./servers";

// S8 of the quality plan, the soak: REST and MCP mixed at 30 % of the whole stack's measured
// maximum for 30 minutes (BENCH_SOAK_MINUTES), with the RSS of the server's process tree
// sampled every 10 s. Every answer must be 2xx and no socket may fail; the RSS once warm
// (after 2 minutes) against the last sample shows whether memory creeps.
export const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const MAX_S = Number(process.env.BENCH_SOAK_MAX_S ?? 10);
const SHARE = 0.3;
const WARM_S = 120;
const SAMPLE_MS = 10_000;
// Enough connections that the fixed rate never waits for a free one (rate × latency).
const CONNECTIONS = 16;
const GOAL = { growthPct: 10 };

type Kind = "fetch_item" | "mcp fetch_item" | "search_content" | "create_draft" | "update_draft";
type Counts = Record<Kind, Record<string, number>>;

export type SoakResult = {
  mode: Mode;
  maxReqPerSec: number;
  /** Non-2xx and socket errors (timeouts) of the 50-connection maximum run: saturation, not the soak. */
  maxRunBad: number;
  rate: number;
  seconds: number;
  total: number;
  socketErrors: number;
  timeouts: number;
  unexpected: number;
  byKind: Counts;
  p50: number;
  p99: number;
  warmRssMb: number;
  lastRssMb: number;
  peakRssMb: number;
  growthPct: number;
  rss: Array<[number, number]>;
  pass: boolean;
};

/**
 * One pass of the sequence each connection repeats: two reads (REST and MCP), a search, and
 * a new draft that is then edited (its id carried in the connection's context). The search
 * word appears only in the first draft, so the thousands of drafts the soak writes do not
 * turn the search into a scan that grows with the run.
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
    post("search_content", `${api}/search_content`, JSON.stringify({ query: "interviewed", limit: 10 })),
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

    log(`${mode} soak: warm-up 3 s, then the maximum of the mix (50 connections, ${MAX_S} s)`);
    await load(origin, sequence(api, headers, created.id, emptyCounts()), { connections: 50, duration: 3 });
    const max = await load(origin, sequence(api, headers, created.id, emptyCounts()), { connections: 50, duration: MAX_S });
    const maxReqPerSec = Math.round(max["2xx"] / max.duration);
    const rate = Math.max(1, Math.round(SHARE * maxReqPerSec));
    log(`  maximum ${maxReqPerSec} req/s (${max.non2xx} non-2xx, ${max.errors} errors); soak at ${rate} req/s for ${SOAK_MINUTES} min`);

    const rss: Array<[number, number]> = [];
    const t0 = Date.now();
    const sample = () => rss.push([Math.round((Date.now() - t0) / 1000), rssMb(whole.proc.pid)]);
    sample();
    const timer = setInterval(() => {
      sample();
      const [s, mb] = rss[rss.length - 1];
      if (s % 60 < SAMPLE_MS / 1000) log(`  ${Math.round(s / 60)} min: RSS ${mb} MB`);
    }, SAMPLE_MS);
    const counts = emptyCounts();
    let r: Result;
    try {
      r = await load(origin, sequence(api, headers, created.id, counts), { connections: CONNECTIONS, duration: SOAK_MINUTES * 60, overallRate: rate });
    } finally {
      clearInterval(timer);
    }
    sample();

    const warm = rss.find(([s]) => s >= WARM_S) ?? rss[rss.length - 1];
    const last = rss[rss.length - 1];
    const growthPct = Math.round((1000 * (last[1] - warm[1])) / warm[1]) / 10;
    const unexpected = Object.values(counts).reduce((n, byStatus) => n + Object.entries(byStatus).reduce((m, [s, c]) => m + (/^2\d\d$/.test(s) ? 0 : c), 0), 0);
    return {
      mode,
      maxReqPerSec,
      maxRunBad: max.non2xx + max.errors,
      rate,
      seconds: r.duration,
      total: r.requests.total,
      socketErrors: r.errors,
      timeouts: r.timeouts,
      unexpected: Math.max(unexpected, r.non2xx),
      byKind: counts,
      p50: r.latency.p50,
      p99: r.latency.p99,
      warmRssMb: warm[1],
      lastRssMb: last[1],
      peakRssMb: Math.max(...rss.map(([, mb]) => mb)),
      growthPct,
      rss,
      pass: r.errors === 0 && unexpected === 0 && r.non2xx === 0 && growthPct < GOAL.growthPct,
    };
  } finally {
    await whole.proc.stop();
  }
}

const mark = (ok: boolean) => (ok ? "pass" : "FAIL");

export function printSoakTable(rows: SoakResult[]) {
  const out = [""];
  for (const r of rows) {
    const kinds = Object.entries(r.byKind).map(
      ([k, byStatus]) =>
        `${k} ${Object.entries(byStatus)
          .map(([s, c]) => `${c}×${s}`)
          .join(" ")}`,
    );
    out.push(
      `S8 soak ${r.mode}: ${r.rate} req/s (30 % of the measured maximum ${r.maxReqPerSec} req/s) for ${Math.round(r.seconds / 60)} min` +
        (r.maxRunBad ? ` (the saturated maximum run had ${r.maxRunBad} non-2xx or socket errors)` : ""),
      `  requests       ${r.total} (${kinds.join("; ")})`,
      `  socket errors  ${r.socketErrors} (goal 0) ${mark(r.socketErrors === 0)}${r.timeouts ? `, ${r.timeouts} of them timeouts` : ""}`,
      `  unexpected non-2xx ${r.unexpected} (goal 0) ${mark(r.unexpected === 0)}`,
      `  latency        p50 ${r.p50} ms, p99 ${r.p99} ms`,
      `  RSS            warm (${WARM_S / 60} min) ${r.warmRssMb} MB, last ${r.lastRssMb} MB, peak ${r.peakRssMb} MB: growth ${r.growthPct} % (goal < ${GOAL.growthPct} %) ${mark(r.growthPct < GOAL.growthPct)}`,
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
}
