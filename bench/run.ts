import fs from "node:fs";
import path from "node:path";
import { measure, R2_RUNS, type Measurement, type Target } from "./load";
import { ensureBuild } from "../tests/helpers/build";
import { cleanupAll } from "./procs";
import { benchLimiter, printLimiterTable } from "./limiter";
import { benchScheduler, printSchedulerTable } from "./scheduler";
import { benchSoak, LOAD_MINUTES, printSoakTable, SOAK_MINUTES } from "./soak";
import { BODY, jsonPost, mcpToolCall } from "./http";
import { benchSearch, printSearchTable, SEARCH_RUNS } from "./search";
import { benchDriver, printDriverTable } from "./driver";
import { benchMcpFloor, FLOOR_ROUNDS, FLOOR_SIDES, printFloorTable } from "./mcp-floor";
import { measureStart, type StartFigures } from "./startup";
import { nextRunIndex, printStartTable, printTable, writeJson, type ModeResult } from "./report";
import { freePort, freshStore, seed, startBare, startWhole, tempDir, type Mode, type Server } from "./servers";
import { printSummary, summaryRows, type Parts } from "./summary";

// `npm run bench` with no arguments: every figure of docs/performance.md but the soak (a long
// run: docs/performance.md), each part's table, then one table of them all, each beside its
// goal (summary.ts).
// `npm run bench -- pglite postgres` (either or both): R1 (throughput ratio), R2 (p99 at 200
// req/s) and R7 (peak RSS) of fetch_item, whole stack against a bare node:http server, and R3
// (MCP tools/call against REST on the same server). They also give R8 (start to the first
// 200) and R7 idle (RSS after start and a little traffic, BENCH_IDLE_S = 5 and BENCH_SETTLE_S
// = 60 seconds later);
// `npm run bench -- startup` gives only those (no load: quick, and robust on a busy machine).
// `npm run bench -- scheduler` (or BENCH_MODES=scheduler): R6, scheduler lateness (bench/scheduler.ts).
// `npm run bench -- limiter`: R5, the rate limiter on Redis against in process (bench/limiter.ts).
// `npm run bench -- soak [postgres]`: S8, mixed traffic at 70 % of the maximum for 5 minutes,
// then the soak at 30 % for 30, PGlite unless postgres is named (bench/soak.ts;
// BENCH_LOAD_MINUTES, BENCH_SOAK_MINUTES).
// `npm run bench -- search`: R4, search_content against fetch_item with 100,000 items (bench/search.ts).
// `npm run bench -- driver`: the PostgreSQL client's steadiness under sustained load (bench/driver.ts).
// `npm run bench -- mcp-floor`: the MCP SDK's own cost of a request against REST, R3's bound (bench/mcp-floor.ts).
// Env: BENCH_DURATION (seconds of the R1 throughput runs, default 20 as docs/performance.md says), BENCH_MODES (the arguments, comma-separated), BENCH_PG_URL.
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const GIVEN = process.argv.slice(2).join(",") || process.env.BENCH_MODES;
// Nothing asked: every part but the soak (and the diagnostic driver and mcp-floor).
const EVERYTHING = !GIVEN;
const ASKED = (GIVEN || "pglite,postgres,search,limiter,scheduler")
  .split(",")
  .map((m) => m.trim())
  .filter(Boolean);
const SCHEDULER = ASKED.includes("scheduler");
const STARTUP_ONLY = ASKED.includes("startup");
const LIMITER = ASKED.includes("limiter");
const LIMITER_PAIRS = Number(process.env.BENCH_LIMITER_PAIRS ?? 4);
const SOAK = ASKED.includes("soak");
const SEARCH = ASKED.includes("search");
const DRIVER = ASKED.includes("driver");
const MCP_FLOOR = ASKED.includes("mcp-floor");
const STARTS = Number(process.env.BENCH_STARTS ?? 4);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 5);
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 60);
const named = ASKED.filter((m) => !["scheduler", "startup", "limiter", "soak", "search", "driver", "mcp-floor"].includes(m)) as Mode[];
const BOTH: Mode[] = ["pglite", "postgres"];
// With soak, the named modes are the soak's databases, not R1-R3 runs; with search or startup
// alone, the databases to search or start (both when none is named).
const SOAK_MODES: Mode[] = SOAK ? (named.length ? named : ["pglite"]) : [];
const SEARCH_MODES: Mode[] = !SEARCH ? [] : EVERYTHING || !named.length ? BOTH : named;
const MODES: Mode[] = SOAK || (SEARCH && !EVERYTHING) ? [] : STARTUP_ONLY && !named.length ? BOTH : named;
const PG_ADMIN = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const RESULTS = path.join(process.cwd(), "bench/results/latest.json");
const DEADLINE_MS =
  (MODES.length * (2 * (DURATION + 18) + 2 * R2_RUNS * 12 + 150 + SETTLE_S) +
    SEARCH_MODES.length * (600 + SEARCH_RUNS * 90) +
    (SCHEDULER ? 900 : 0) +
    (DRIVER ? 120 : 0) +
    (MCP_FLOOR ? FLOOR_SIDES.length * FLOOR_ROUNDS * (DURATION + 6) + 120 : 0) +
    (LIMITER ? LIMITER_PAIRS * 2 * (DURATION + 20) + 60 : 0) +
    SOAK_MODES.length * ((LOAD_MINUTES + SOAK_MINUTES) * 60 + 120) +
    60) *
  1000;

const log = (s: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);

/**
 * A fixed amount of ordinary traffic after start-up, so that idle RSS includes the code of the
 * routes clients use: the operation list, OpenAPI, create_draft, fetch_item (REST and MCP).
 */
async function someTraffic(base: string, headers: Record<string, string>) {
  for (const p of ["", "/openapi.json"]) await (await fetch(`${base}${p}`)).arrayBuffer();
  const created = JSON.parse(await jsonPost(`${base}/create_draft`, JSON.stringify({ type: "post", body: BODY }), headers));
  const fetchBody = JSON.stringify({ id: created.id, type: "post" });
  for (let i = 0; i < 10; i++) await jsonPost(`${base}/fetch_item`, fetchBody, headers);
  const call = mcpToolCall("fetch_item", JSON.parse(fetchBody));
  for (let i = 0; i < 5; i++) await jsonPost(base.replace(/\/api\/v1$/, "/mcp"), call.body, { ...headers, ...call.headers });
}

async function benchStart(mode: Mode): Promise<{ mode: Mode; start: StartFigures }> {
  log(`${mode}: R8 and idle RSS: ${STARTS} starts on a fresh database`);
  const tmp = tempDir();
  const store = await freshStore(mode, tmp, PG_ADMIN);
  const port = await freePort();
  const { token } = await seed(store, `http://127.0.0.1:${port}`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const start = await measureStart(store, port, tmp, { starts: STARTS, idleS: IDLE_S, settleS: SETTLE_S, requests: (base) => someTraffic(base, headers) }, log);
  return { mode, start };
}

async function benchMode(mode: Mode, wholeFirst: boolean): Promise<ModeResult> {
  log(`${mode}: preparing a fresh database`);
  const tmp = tempDir();
  const store = await freshStore(mode, tmp, PG_ADMIN);
  const wholePort = await freePort();
  const barePort = await freePort();
  const { userId, token } = await seed(store, `http://127.0.0.1:${wholePort}`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const start = await measureStart(
    store,
    wholePort,
    tmp,
    { starts: STARTS, idleS: IDLE_S, settleS: SETTLE_S, requests: (base) => someTraffic(base, headers) },
    log,
  );

  log(`${mode}: starting the built server (server.mjs) on :${wholePort}`);
  let whole: Server | undefined = await startWhole(store, wholePort, tmp);
  const created = JSON.parse(await jsonPost(`${whole.url}/create_draft`, JSON.stringify({ type: "post", body: BODY }), headers));
  const fetchBody = JSON.stringify({ id: created.id, type: "post" });
  const reference = await jsonPost(`${whole.url}/fetch_item`, fetchBody, headers);
  log(`${mode}: draft ${created.id}; fetch_item answers ${reference.length} bytes`);

  const order = wholeFirst ? (["whole", "bare"] as const) : (["bare", "whole"] as const);
  const out: Partial<Record<"whole" | "bare" | "mcp", Measurement>> = {};
  for (const side of order) {
    // One server at a time: both share the machine's 2 cores, and PGlite's data dir.
    if (side === "whole") {
      whole ??= await startWhole(store, wholePort, tmp);
      log(`${mode}: whole stack (pid ${whole.proc.pid})`);
      const target: Target = { url: `${whole.url}/fetch_item`, headers, body: fetchBody, pid: whole.proc.pid };
      out.whole = await measure(target, DURATION, log, R2_RUNS);
      // R3: the same read as an MCP tools/call on the same server (stateless, JSON answers).
      log(`${mode}: MCP tools/call fetch_item on the same server`);
      const call = mcpToolCall("fetch_item", JSON.parse(fetchBody));
      out.mcp = await measure(
        { url: whole.url.replace(/\/api\/v1$/, "/mcp"), headers: { ...headers, ...call.headers }, body: call.body, pid: whole.proc.pid },
        DURATION,
        log,
      );
      await whole.proc.stop();
      whole = undefined;
    } else {
      if (whole) await whole.proc.stop();
      whole = undefined;
      const bare = await startBare(store, barePort, userId, tmp);
      const got = await jsonPost(`${bare.url}/fetch_item`, fetchBody, headers);
      if (got !== reference) throw new Error(`The bare server answers different bytes:\n${got}\n---\n${reference}`);
      log(`${mode}: bare node:http (pid ${bare.proc.pid}), same ${got.length} bytes`);
      out.bare = await measure({ url: `${bare.url}/fetch_item`, headers, body: fetchBody, pid: bare.proc.pid }, DURATION, log, R2_RUNS);
      await bare.proc.stop();
    }
  }
  return { mode, order: [...order], whole: out.whole!, bare: out.bare!, mcp: out.mcp!, start };
}

async function main() {
  log("making sure the build is current");
  await ensureBuild();
  const parts: Parts = { load: [], search: [], scheduler: [] };
  if (STARTUP_ONLY) {
    const rows = [];
    for (const mode of MODES) rows.push(await benchStart(mode));
    printStartTable(rows);
    saveJson("startup.json", { rows });
  } else if (MODES.length) {
    const runIndex = nextRunIndex(RESULTS);
    const results: ModeResult[] = [];
    for (const [i, mode] of MODES.entries()) {
      results.push(await benchMode(mode, (runIndex + i) % 2 === 0));
    }
    printTable(results);
    printStartTable(results);
    writeJson(RESULTS, results, { runIndex, durationS: DURATION, cpus: (await import("node:os")).cpus().length });
    log(`results written to ${path.relative(process.cwd(), RESULTS)}`);
    parts.load = results;
  }
  if (SEARCH_MODES.length) {
    for (const mode of SEARCH_MODES) parts.search.push(await benchSearch(mode, PG_ADMIN, log));
    printSearchTable(parts.search);
    saveJson("search.json", { rows: parts.search });
  }
  if (LIMITER) {
    const r = await benchLimiter(PG_ADMIN, DURATION, LIMITER_PAIRS, log);
    printLimiterTable(r);
    saveJson("limiter.json", { durationS: DURATION, ...r });
    parts.limiter = r;
  }
  if (SOAK_MODES.length) {
    const rows = [];
    for (const mode of SOAK_MODES) rows.push(await benchSoak(mode, PG_ADMIN, log));
    printSoakTable(rows);
    saveJson("soak.json", { loadMinutes: LOAD_MINUTES, soakMinutes: SOAK_MINUTES, rows });
  }
  if (MCP_FLOOR) {
    const rows = await benchMcpFloor(PG_ADMIN, DURATION, log);
    printFloorTable(rows);
    saveJson("mcp-floor.json", { durationS: DURATION, rows });
  }
  if (DRIVER) {
    const r = await benchDriver(PG_ADMIN, log);
    printDriverTable(r);
    saveJson("driver.json", r);
  }
  if (SCHEDULER) {
    const rows = await benchScheduler(PG_ADMIN, log);
    printSchedulerTable(rows);
    saveJson("scheduler.json", { rows });
    parts.scheduler = rows;
  }
  // One table of every figure when more than one part ran.
  if ([parts.load.length, parts.search.length, parts.limiter, parts.scheduler.length].filter(Boolean).length > 1) {
    printSummary(parts);
    saveJson("summary.json", { rows: summaryRows(parts) });
  }
}

function saveJson(name: string, body: object) {
  const file = path.join(process.cwd(), "bench/results", name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ finishedAt: new Date().toISOString(), ...body }, null, 2) + "\n");
  log(`results written to ${path.relative(process.cwd(), file)}`);
}

let exiting = false;
async function finish(code: number) {
  if (exiting) return;
  exiting = true;
  await cleanupAll();
  process.exit(code);
}

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    log(`${sig}: stopping servers and removing temp data`);
    void finish(130);
  });
}
const deadline = setTimeout(() => {
  log(`gave up after ${DEADLINE_MS / 1000} s`);
  void finish(1);
}, DEADLINE_MS);

main().then(
  () => {
    clearTimeout(deadline);
    void finish(0);
  },
  (e) => {
    clearTimeout(deadline);
    log(`failed: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
    void finish(1);
  },
);
