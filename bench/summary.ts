import { columns, figures, GOALS, mark, P99_MAX_MS, R1_MIN, START_GOAL_MS, type ModeResult } from "./report";
import { R4_GOAL, type SearchResult } from "./search";
import { R5_GOAL, r5Figure, type LimiterResult } from "./limiter";
import { R6_GOAL, type SchedulerResult } from "./scheduler";

// The figures of docs/performance.md in one table, each figure beside its goal, from whatever parts of
// the bench ran (`npm run bench` with no arguments runs them all but the soak). A row whose
// part did not run says which command measures it.

export type Parts = { load: ModeResult[]; search: SearchResult[]; limiter?: LimiterResult; scheduler: SchedulerResult[] };
type Row = { id: string; goal: string; postgres: string; pglite: string };

const MODES = ["postgres", "pglite"] as const;
const NOT_RUN = "not run";

/** One cell per database: the figure from `rows` of that mode, or the command that measures it. */
function perMode<T extends { mode: string }>(rows: T[], cell: (r: T) => string, command: (mode: string) => string): Pick<Row, "postgres" | "pglite"> {
  const [postgres, pglite] = MODES.map((m) => {
    const r = rows.find((x) => x.mode === m);
    return r ? cell(r) : `${NOT_RUN} (${command(m)})`;
  });
  return { postgres, pglite };
}

export function summaryRows(p: Parts): Row[] {
  const load = p.load.map((r) => ({ mode: r.mode, f: figures(r), start: r.start }));
  const loadCell = (cell: (r: (typeof load)[number]) => string) => perMode(load, cell, (m) => `npm run bench -- ${m}`);
  const r6 = p.scheduler.find((r) => r.drafts === 10_000 && r.processes === 1) ?? p.scheduler.find((r) => r.drafts === 10_000);
  return [
    {
      id: "R1 whole ÷ bare req/s",
      goal: `>= ${R1_MIN.postgres} / >= ${R1_MIN.pglite}`,
      ...loadCell(({ f }) => `${f.r1} (${f.wholeReqPerSec} / ${f.bareReqPerSec}) ${mark(f.pass.r1)}`),
    },
    {
      id: "R2 p99 at 200 req/s, whole ÷ bare",
      goal: `<= ${GOALS.r2Max}, < ${P99_MAX_MS.postgres} / < ${P99_MAX_MS.pglite} ms`,
      ...loadCell(({ f }) => `${f.r2} (${f.p99WholeMs} / ${f.p99BareMs} ms) ${mark(f.pass.r2)}`),
    },
    { id: "R3 MCP tools/call ÷ REST", goal: `>= ${GOALS.r3Min}`, ...loadCell(({ f }) => `${f.r3} (${f.mcpReqPerSec} req/s) ${mark(f.pass.r3)}`) },
    {
      id: "R4 search p95 ÷ fetch_item p95",
      goal: `<= ${R4_GOAL}`,
      ...perMode(
        p.search,
        (r) => `${r.r4} ${mark(r.pass)}`,
        (m) => `npm run bench -- search ${m}`,
      ),
    },
    {
      id: "R5 Redis limiter ÷ in process",
      goal: `>= ${R5_GOAL}`,
      postgres: p.limiter ? `${r5Figure(p.limiter)} ${mark(p.limiter.pass)}` : `${NOT_RUN} (npm run bench -- limiter)`,
      pglite: "no Redis in embedded mode",
    },
    {
      id: "R6 10,000 drafts due at once",
      goal: `p50 <= ${R6_GOAL.p50} ms, p99 <= ${R6_GOAL.p99} ms, 0 dup, 0 missing`,
      postgres: r6
        ? `p50 ${r6.p50} ms, p99 ${r6.p99} ms, ${r6.duplicates} dup, ${r6.missing + r6.notPublished} missing ${mark(r6.pass)}`
        : `${NOT_RUN} (npm run bench -- scheduler)`,
      pglite: "PostgreSQL only",
    },
    {
      id: "R7 idle RSS (5 s / settled)",
      goal: `< ${GOALS.idleRssMaxMb} MB`,
      ...loadCell(({ start }) => `${start.idleRssMb} / ${start.settledRssMb} MB ${mark(Math.max(start.idleRssMb, start.settledRssMb) < GOALS.idleRssMaxMb)}`),
    },
    { id: "R7 peak RSS under load", goal: `< ${GOALS.rssMaxMb} MB`, ...loadCell(({ f }) => `${f.peakRssWholeMb} MB ${mark(f.pass.r7)}`) },
    {
      id: "R8 npm start to first 200",
      goal: `< ${START_GOAL_MS.postgres} / < ${START_GOAL_MS.pglite} ms`,
      ...loadCell(({ mode, start }) => `${start.restartMs} ms ${mark(start.restartMs < START_GOAL_MS[mode])}`),
    },
    {
      id: "S8 load 5 min at 70 %, soak 30 min at 30 %",
      goal: "0 errors, rate kept, RSS growth < 10 %",
      postgres: "npm run bench -- soak postgres",
      pglite: "npm run bench -- soak",
    },
  ];
}

export function printSummary(p: Parts) {
  const rows = summaryRows(p).map((r) => [r.id, r.goal, r.postgres, r.pglite]);
  const out = ["", "All figures of this run, each beside its goal:", ...columns(["figure", "goal", "PostgreSQL", "PGlite"], rows)];
  process.stdout.write(`${out.join("\n")}\n`);
}
