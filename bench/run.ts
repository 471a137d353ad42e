import path from "node:path";
import { measure, type Measurement, type Target } from "./load";
import { ensureBuild } from "../tests/helpers/build";
import { cleanupAll } from "./procs";
import { benchScheduler, printSchedulerTable } from "./scheduler";
import { benchSearch, printSearchTable } from "./search";
import { measureStart, type StartFigures } from "./startup";
import { nextRunIndex, printStartTable, printTable, writeJson, type ModeResult } from "./report";
import { freePort, freshStore, seed, startBare, startWhole, tempDir, type Mode, type Server } from "./servers";

// `npm run bench`: R1 (throughput ratio), R2 (p99 at 200 req/s) and R7 (peak RSS) of
// fetch_item, whole stack against a bare node:http server, and R3 (MCP tools/call against
// REST on the same server), for PGlite and PostgreSQL.
// Both also give R8 (start to the first 200) and R7 idle (RSS after start and a little traffic);
// `npm run bench -- startup` gives only those (no load: quick, and robust on a busy machine).
// `npm run bench -- scheduler` (or BENCH_MODES=scheduler): R6, scheduler lateness (bench/scheduler.ts).
// `npm run bench -- search`: R4, search_content against fetch_item with 100,000 items (bench/search.ts).
// Env: BENCH_DURATION (seconds, default 10), BENCH_MODES (pglite,postgres,scheduler), BENCH_PG_URL.
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ASKED = (process.argv.slice(2).join(",") || process.env.BENCH_MODES || "pglite,postgres")
  .split(",")
  .map((m) => m.trim())
  .filter(Boolean);
const SCHEDULER = ASKED.includes("scheduler");
const STARTUP_ONLY = ASKED.includes("startup");
const SEARCH = ASKED.includes("search");
const STARTS = Number(process.env.BENCH_STARTS ?? 4);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 5);
const named = ASKED.filter((m) => !["scheduler", "startup", "search"].includes(m)) as Mode[];
const MODES: Mode[] = (STARTUP_ONLY || SEARCH) && !named.length ? ["pglite", "postgres"] : named;
const PG_ADMIN = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const RESULTS = path.join(process.cwd(), "bench/results/latest.json");
const DEADLINE_MS = (MODES.length * (SEARCH ? 600 : 2 * (DURATION + 13) + 150) + (SCHEDULER ? 900 : 0) + 60) * 1000;

const log = (s: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);

// A realistic post (~1,500 characters) so the answer has the size of a real one.
const BODY = [
  "Three years ago our team shipped a feature nobody used. We had interviewed forty customers, built a clickable prototype, and run a two-week beta.",
  "Everyone said they loved it. Usage after launch: four percent.",
  "",
  "What went wrong? We asked people what they wanted instead of watching what they did. Stated preferences are cheap; revealed preferences cost time, money or attention, and that is why they are honest.",
  "",
  "Here is what we changed:",
  "1. Every interview now ends with a concrete ask: a pre-order, an introduction to a colleague, or thirty minutes to migrate real data. A yes to a cost beats ten compliments.",
  "2. We instrument the prototype before the beta, not after. If we cannot say which number will move, we are not ready to build.",
  "3. We kill features in public. A short note to the whole company about what we stopped and why has done more for focus than any roadmap review.",
  "4. We write the launch post first. If the announcement sounds dull to us, it will sound dull to customers.",
  "",
  "The result: fewer launches, but the last five all passed thirty percent weekly usage within a month.",
  "",
  "The hardest part was not the process. It was admitting that our favourite ideas were often the ones with the least evidence behind them.",
  "",
  "What is one signal you trust more than what customers tell you?",
].join("\n");

async function jsonPost(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  return text;
}

/**
 * A fixed amount of ordinary traffic after start-up, so that idle RSS includes the code of the
 * routes clients use: the operation list, OpenAPI, create_draft, fetch_item (REST and MCP).
 */
async function someTraffic(base: string, headers: Record<string, string>) {
  for (const p of ["", "/openapi.json"]) await (await fetch(`${base}${p}`)).arrayBuffer();
  const created = JSON.parse(await jsonPost(`${base}/create_draft`, JSON.stringify({ type: "post", body: BODY }), headers));
  const fetchBody = JSON.stringify({ id: created.id, type: "post" });
  for (let i = 0; i < 10; i++) await jsonPost(`${base}/fetch_item`, fetchBody, headers);
  const mcp = base.replace(/\/api\/v1$/, "/mcp");
  const mcpHeaders = { ...headers, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
  for (let i = 0; i < 5; i++)
    await jsonPost(
      mcp,
      JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "fetch_item", arguments: JSON.parse(fetchBody) } }),
      mcpHeaders,
    );
}

async function benchStart(mode: Mode): Promise<{ mode: Mode; start: StartFigures }> {
  log(`${mode}: R8 and idle RSS: ${STARTS} starts on a fresh database`);
  const tmp = tempDir();
  const store = await freshStore(mode, tmp, PG_ADMIN);
  const port = await freePort();
  const { token } = await seed(store, `http://127.0.0.1:${port}`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const start = await measureStart(store, port, tmp, { starts: STARTS, idleS: IDLE_S, requests: (base) => someTraffic(base, headers) }, log);
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
  const start = await measureStart(store, wholePort, tmp, { starts: STARTS, idleS: IDLE_S, requests: (base) => someTraffic(base, headers) }, log);

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
      out.whole = await measure(target, DURATION, log);
      // R3: the same read as an MCP tools/call on the same server (stateless, JSON answers).
      log(`${mode}: MCP tools/call fetch_item on the same server`);
      out.mcp = await measure(
        {
          url: whole.url.replace(/\/api\/v1$/, "/mcp"),
          headers: { ...headers, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fetch_item", arguments: JSON.parse(fetchBody) } }),
          pid: whole.proc.pid,
        },
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
      out.bare = await measure({ url: `${bare.url}/fetch_item`, headers, body: fetchBody, pid: bare.proc.pid }, DURATION, log);
      await bare.proc.stop();
    }
  }
  return { mode, order: [...order], whole: out.whole!, bare: out.bare!, mcp: out.mcp!, start };
}

async function main() {
  if (SEARCH) {
    log("making sure the build is current");
    await ensureBuild();
    const rows = [];
    for (const mode of MODES) rows.push(await benchSearch(mode, PG_ADMIN, log));
    printSearchTable(rows);
    const file = path.join(process.cwd(), "bench/results/search.json");
    const fs = await import("node:fs");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ finishedAt: new Date().toISOString(), rows }, null, 2) + "\n");
    log(`results written to ${path.relative(process.cwd(), file)}`);
  } else if (STARTUP_ONLY) {
    log("making sure the build is current");
    await ensureBuild();
    const rows = [];
    for (const mode of MODES) rows.push(await benchStart(mode));
    printStartTable(rows);
    const file = path.join(process.cwd(), "bench/results/startup.json");
    const fs = await import("node:fs");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ finishedAt: new Date().toISOString(), rows }, null, 2) + "\n");
    log(`results written to ${path.relative(process.cwd(), file)}`);
  } else if (MODES.length) {
    log("making sure the build is current");
    await ensureBuild();
    const runIndex = nextRunIndex(RESULTS);
    const results: ModeResult[] = [];
    for (const [i, mode] of MODES.entries()) {
      results.push(await benchMode(mode, (runIndex + i) % 2 === 0));
    }
    printTable(results);
    printStartTable(results);
    writeJson(RESULTS, results, { runIndex, durationS: DURATION, cpus: (await import("node:os")).cpus().length });
    log(`results written to ${path.relative(process.cwd(), RESULTS)}`);
  }
  if (SCHEDULER) {
    const rows = await benchScheduler(PG_ADMIN, log);
    printSchedulerTable(rows);
    const file = path.join(process.cwd(), "bench/results/scheduler.json");
    const fs = await import("node:fs");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ finishedAt: new Date().toISOString(), rows }, null, 2) + "\n");
    log(`results written to ${path.relative(process.cwd(), file)}`);
  }
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
