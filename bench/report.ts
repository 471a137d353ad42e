import fs from "node:fs";
import path from "node:path";
import type { Measurement } from "./load";
import type { StartFigures } from "./startup";

export type ModeResult = { mode: string; order: string[]; whole: Measurement; bare: Measurement; mcp: Measurement; start: StartFigures };

// R7: idle < 200 MB, peak under R1 load < 300 MB. R8: start to the first 200.
export const GOALS = { r2Max: 2.0, rssMaxMb: 300, idleRssMaxMb: 200, r3Min: 0.8 };
// R1 and R2's absolute p99 differ by database: the embedded one runs in the server's process.
export const R1_MIN: Record<string, number> = { pglite: 0.4, postgres: 0.5 };
export const P99_MAX_MS: Record<string, number> = { pglite: 60, postgres: 25 };
export const START_GOAL_MS: Record<string, number> = { pglite: 6000, postgres: 3000 };

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export function figures(r: ModeResult) {
  const r1 = r.whole.throughput.reqPerSec / Math.max(1, r.bare.throughput.reqPerSec);
  const r2 = r.whole.fixedRate.p99 / Math.max(0.001, r.bare.fixedRate.p99);
  const r3 = r.mcp.throughput.reqPerSec / Math.max(1, r.whole.throughput.reqPerSec);
  return {
    mode: r.mode,
    wholeReqPerSec: r.whole.throughput.reqPerSec,
    bareReqPerSec: r.bare.throughput.reqPerSec,
    r1: round(r1),
    p99WholeMs: r.whole.fixedRate.p99,
    p99BareMs: r.bare.fixedRate.p99,
    r2: round(r2),
    mcpReqPerSec: r.mcp.throughput.reqPerSec,
    r3: round(r3),
    peakRssWholeMb: Math.max(r.whole.peakRssMb, r.mcp.peakRssMb),
    peakRssBareMb: r.bare.peakRssMb,
    cpuMsPerReqWhole: r.whole.cpuMsPerReq,
    cpuMsPerReqBare: r.bare.cpuMsPerReq,
    pass: {
      r1: r1 >= R1_MIN[r.mode],
      r2: r2 <= GOALS.r2Max && r.whole.fixedRate.p99 < P99_MAX_MS[r.mode],
      r7: Math.max(r.whole.peakRssMb, r.mcp.peakRssMb) < GOALS.rssMaxMb,
      r3: r3 >= GOALS.r3Min,
    },
  };
}

export const mark = (ok: boolean) => (ok ? "pass" : "FAIL");

/** A table as aligned lines: the head, a rule under it, then each row. */
export function columns(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}
const idleFigure = (mb: number) => `${mb} MB ${mark(mb < GOALS.idleRssMaxMb)}`;

/** R8 and R7 idle, the goal beside each figure. */
export function printStartTable(rows: Array<{ mode: string; start: StartFigures }>) {
  const out = ["", "mode      R8 restart to first 200        R8 first start (new store)    R7 idle RSS (BENCH_IDLE_S / settled)   starts (ms)"];
  for (const { mode, start } of rows) {
    const goal = START_GOAL_MS[mode];
    const first = start.startsMs[0];
    out.push(
      [
        mode.padEnd(8),
        `${start.restartMs} ms (goal < ${goal}) ${mark(start.restartMs < goal)}`.padEnd(29),
        `${first} ms (goal < ${goal}) ${mark(first < goal)}`.padEnd(28),
        `${idleFigure(start.idleRssMb)} / ${idleFigure(start.settledRssMb)}`.padEnd(37),
        start.startsMs.join(", "),
      ].join("  "),
    );
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

export function printTable(results: ModeResult[]) {
  const head = ["mode", "whole req/s", "bare req/s", "R1", "p99 whole", "p99 bare", "R2", "MCP req/s", "R3", "R7 peak RSS whole"];
  const rows = results.map((r) => {
    const f = figures(r);
    return [
      f.mode,
      String(f.wholeReqPerSec),
      String(f.bareReqPerSec),
      `${f.r1} ${mark(f.pass.r1)}`,
      `${f.p99WholeMs} ms`,
      `${f.p99BareMs} ms`,
      `${f.r2} ${mark(f.pass.r2)}`,
      String(f.mcpReqPerSec),
      `${f.r3} ${mark(f.pass.r3)}`,
      `${f.peakRssWholeMb} MB (goal < ${GOALS.rssMaxMb}) ${mark(f.pass.r7)}`,
    ];
  });
  const out = columns(head, rows);
  out.push(
    "",
    `Goals: R1 >= ${R1_MIN.postgres} PostgreSQL, >= ${R1_MIN.pglite} PGlite; R2 <= ${GOALS.r2Max} and p99 whole < ${P99_MAX_MS.postgres} ` +
      `ms PostgreSQL, < ${P99_MAX_MS.pglite} ms PGlite at 200 req/s; R3 >= ${GOALS.r3Min}; R7 peak RSS < ${GOALS.rssMaxMb} MB.`,
  );
  for (const r of results) {
    for (const side of ["whole", "mcp", "bare"] as const) {
      const m = r[side];
      const sum = (k: "non2xx" | "errors" | "timeouts") => [m.throughput, ...m.fixedRateRuns].reduce((n, p) => n + p[k], 0);
      // autocannon's errors include its timeouts.
      const bad = sum("non2xx") + sum("errors");
      const status = bad ? `${sum("non2xx")} non-2xx, ${sum("errors")} errors (${sum("timeouts")} of them timeouts)` : "all 2xx";
      out.push(
        `${r.mode} ${side}: ${status}; fixed-rate p50 ${m.fixedRate.p50} ms, p99 of each ` +
          `run ${m.fixedRateRuns.map((p) => p.p99).join(", ")} ms; evenly spaced p99 ${m.evenP99} ms; ` +
          `throughput-run p99 ${m.throughput.p99} ms; server CPU ${m.cpuMsPerReq} ms/request; peak RSS ${m.peakRssMb} MB`,
      );
    }
    out.push(`${r.mode}: order ${r.order.join(" then ")}`);
  }
  process.stdout.write(`\n${out.join("\n")}\n`);
}

export function writeJson(file: string, results: ModeResult[], meta: Record<string, unknown>) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const body = { ...meta, finishedAt: new Date().toISOString(), figures: results.map(figures), raw: results };
  fs.writeFileSync(file, JSON.stringify(body, null, 2) + "\n");
}

/** Which server goes first alternates between runs (and between modes within a run). */
export function nextRunIndex(file: string): number {
  try {
    return Number(JSON.parse(fs.readFileSync(file, "utf8")).runIndex ?? -1) + 1;
  } catch {
    return 0;
  }
}
