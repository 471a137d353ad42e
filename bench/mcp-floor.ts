import path from "node:path";
import { BODY, jsonPost, mcpToolCall } from "./http";
import { run, type Target } from "./load";
import { cpuMs, startProcess, waitForHttp } from "./procs";
import { median } from "./stats";
import { freePort, freshStore, seed, startWhole, tempDir } from "./servers";

// `npm run bench -- mcp-floor`: what R3 can reach while the MCP SDK serves each request.
// On the same PostgreSQL database, the built server's REST fetch_item and MCP tools/call
// fetch_item (2025-06-18 and 2026-07-28), and the SDK alone answering the same tools/call
// with the same result and nothing else (bench/mcp-floor-server.ts). The SDK alone ÷ REST is
// the most R3 could be if everything of ours (token check, rate limiter, database, the
// operation) cost nothing on the MCP side. 50 connections, BENCH_DURATION seconds a side
// after a 3 s warm-up, BENCH_FLOOR_ROUNDS rounds in alternating order; medians printed.
export const FLOOR_ROUNDS = Number(process.env.BENCH_FLOOR_ROUNDS ?? 2);

export const FLOOR_SIDES = ["REST", "MCP 2025-06-18", "MCP 2026-07-28", "SDK alone 2025-06-18", "SDK alone 2026-07-28"] as const;
type Side = (typeof FLOOR_SIDES)[number];
export type FloorRow = { side: Side; reqPerSec: number[]; cpuMsPerReq: number[] };

export async function benchMcpFloor(pgAdmin: string, durationS: number, log: (s: string) => void): Promise<FloorRow[]> {
  const tmp = tempDir();
  const store = await freshStore("postgres", tmp, pgAdmin);
  const port = await freePort();
  const { token } = await seed(store, `http://127.0.0.1:${port}`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const whole = await startWhole(store, port, tmp);
  const created = JSON.parse(await jsonPost(`${whole.url}/create_draft`, JSON.stringify({ type: "post", body: BODY }), headers));
  const args = { id: created.id, type: "post" };
  const mcpUrl = whole.url.replace(/\/api\/v1$/, "/mcp");
  const legacy = mcpToolCall("fetch_item", args);
  const modern = mcpToolCall("fetch_item", args, "2026-07-28");
  const { result } = JSON.parse(await jsonPost(mcpUrl, legacy.body, { ...headers, ...legacy.headers }));

  const floorPort = await freePort();
  const floor = startProcess(
    process.execPath,
    ["--import", "tsx", path.join(process.cwd(), "bench/mcp-floor-server.ts")],
    { ...process.env, FLOOR_PORT: String(floorPort), FLOOR_RESULT: JSON.stringify(result) },
    path.join(tmp, "floor.log"),
  );
  await waitForHttp(`http://127.0.0.1:${floorPort}/health`, floor);
  const floorUrl = `http://127.0.0.1:${floorPort}/mcp`;
  const targets: Record<Side, Target> = {
    REST: { url: `${whole.url}/fetch_item`, headers, body: JSON.stringify(args), pid: whole.proc.pid },
    "MCP 2025-06-18": { url: mcpUrl, headers: { ...headers, ...legacy.headers }, body: legacy.body, pid: whole.proc.pid },
    "MCP 2026-07-28": { url: mcpUrl, headers: { ...headers, ...modern.headers }, body: modern.body, pid: whole.proc.pid },
    "SDK alone 2025-06-18": { url: floorUrl, headers: { ...headers, ...legacy.headers }, body: legacy.body, pid: floor.pid },
    "SDK alone 2026-07-28": { url: floorUrl, headers: { ...headers, ...modern.headers }, body: modern.body, pid: floor.pid },
  };
  // Both answer the very same result: the floor is the same work on the MCP side minus ours.
  for (const side of FLOOR_SIDES) {
    const t = targets[side];
    const answer = JSON.parse(await jsonPost(t.url, t.body, t.headers));
    if (side !== "REST" && JSON.stringify(answer.result.structuredContent) !== JSON.stringify(result.structuredContent)) {
      throw new Error(`${side} answers another result: ${JSON.stringify(answer).slice(0, 300)}`);
    }
  }

  const rows = FLOOR_SIDES.map((side): FloorRow => ({ side, reqPerSec: [], cpuMsPerReq: [] }));
  for (let round = 0; round < FLOOR_ROUNDS; round++) {
    const order = round % 2 === 0 ? rows : [...rows].reverse();
    for (const row of order) {
      const t = targets[row.side];
      log(`mcp-floor round ${round + 1}: ${row.side}`);
      await run(t, { connections: 50, duration: 3 });
      const cpu0 = cpuMs(t.pid);
      const r = await run(t, { connections: 50, duration: durationS });
      if (r.non2xx || r.errors) throw new Error(`${row.side}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      row.reqPerSec.push(Math.round(r["2xx"] / r.duration));
      row.cpuMsPerReq.push(Math.round((100 * (cpuMs(t.pid) - cpu0)) / Math.max(1, r.requests.total)) / 100);
      log(`  ${row.reqPerSec.at(-1)} req/s, ${row.cpuMsPerReq.at(-1)} ms of server CPU a request`);
    }
  }
  await floor.stop();
  await whole.proc.stop();
  return rows;
}

export function printFloorTable(rows: FloorRow[]) {
  const rest = median(rows[0].reqPerSec);
  const lines = rows.map(
    (r) =>
      `${r.side.padEnd(22)} ${String(Math.round(median(r.reqPerSec))).padStart(7)}  ${median(r.cpuMsPerReq).toFixed(2).padStart(12)}  ` +
      `${(median(r.reqPerSec) / rest).toFixed(2).padStart(9)}   (${r.reqPerSec.join(", ")})`,
  );
  process.stdout.write(
    `\nside                     req/s  CPU ms/req   ÷ REST   (each round)\n${lines.join("\n")}\n` +
      `R3 is MCP ÷ REST (goal >= 0.8). The SDK alone ÷ REST bounds it: the SDK's own serving ` +
      `of a request, with a fixed answer and nothing of ours, against our whole REST call.\n`,
  );
}
