import { Redis } from "ioredis";
import { BODY, jsonPost } from "./http";
import { phase, run, type Phase, type Target } from "./load";
import { cpuMs } from "./procs";
import { columns, mark } from "./report";
import { median } from "./stats";
import { freePort, freshStore, seed, startWhole, tempDir, type Store } from "./servers";

// R5 of docs/performance.md: fetch_item req/s through the whole stack with the rate limiter's
// counters on Redis ÷ the same in process. One build, one fresh PostgreSQL database, a user and a draft per server;
// RATE_LIMIT_SCALE (startWhole) lifts the limit so nothing is refused, but every request is
// still counted, which the bench checks in Redis. Pairs alternate which store runs first;
// the median of their ratios is R5.
export const R5_GOAL = 0.9;
const REDIS = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

type Side = { reqPerSec: number; cpuMsPerReq: number; p99: number; bad: number; redisCpuMsPerReq?: number };
/** cpuRatio: in-process CPU per request ÷ (server + Redis CPU per request), steadier than req/s here. */
export type LimiterPair = { order: string[]; redis: Side; memory: Side; ratio: number; cpuRatio: number };
export type LimiterResult = { pairs: LimiterPair[]; median: number; medianCpuRatio: number; countedInRedis: number; pass: boolean };

/** CPU time (ms) the Redis server has used so far, from INFO (other users of it count too). */
async function redisCpuMs(redis: Redis) {
  const info = await redis.info("cpu");
  const v = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (v("used_cpu_sys") + v("used_cpu_user")) * 1000;
}

type Running = { name: "redis" | "memory"; target: Target; userId: string };

/** One server, its own user (a token names its server's origin) and draft (warmed up before each run). */
async function startSide(name: Running["name"], store: Store, tmp: string): Promise<Running> {
  const port = await freePort();
  const { userId, token } = await seed(store, `http://127.0.0.1:${port}`);
  const whole = await startWhole(name === "redis" ? { ...store, REDIS_URL: REDIS } : store, port, tmp);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const created = JSON.parse(await jsonPost(`${whole.url}/create_draft`, JSON.stringify({ type: "post", body: BODY }), headers));
  const target: Target = { url: `${whole.url}/fetch_item`, headers, body: JSON.stringify({ id: created.id, type: "post" }), pid: whole.proc.pid };
  return { name, target, userId };
}

async function measureSide(s: Running, durationS: number, redis: Redis): Promise<Side> {
  const t = s.target;
  const [cpu0, redis0] = [cpuMs(t.pid), await redisCpuMs(redis)];
  const p: Phase = phase(await run(t, { connections: 50, duration: durationS }));
  const perReq = (ms: number) => Math.round((1000 * ms) / Math.max(1, p.requests)) / 1000;
  const out: Side = { reqPerSec: p.reqPerSec, cpuMsPerReq: perReq(cpuMs(t.pid) - cpu0), p99: p.p99, bad: p.non2xx + p.errors };
  if (s.name === "redis") out.redisCpuMsPerReq = perReq((await redisCpuMs(redis)) - redis0);
  return out;
}

/**
 * Both servers run side by side on one database (idle while the other is measured), so that
 * pairs are cheap and close in time: on a shared machine the load drifts within minutes.
 */
export async function benchLimiter(pgAdmin: string, durationS: number, pairs: number, log: (s: string) => void): Promise<LimiterResult> {
  const tmp = tempDir();
  const store = await freshStore("postgres", tmp, pgAdmin);
  const redis = new Redis(REDIS, { lazyConnect: true });
  await redis.connect();
  const counted = async (userId: string) => {
    const keys = await redis.keys(`rl:req:${userId}:*`);
    return keys.length ? (await redis.mget(keys)).reduce((n, v) => n + Number(v ?? 0), 0) : 0;
  };
  const out: LimiterPair[] = [];
  let countedInRedis = 0;
  try {
    log(`R5: starting the built server twice on one fresh PostgreSQL database, limiter on Redis (${REDIS}) and in process`);
    const sides = { redis: await startSide("redis", store, tmp), memory: await startSide("memory", store, tmp) };
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? (["redis", "memory"] as const) : (["memory", "redis"] as const);
      const got: Partial<Record<"redis" | "memory", Side>> = {};
      for (const name of order) {
        const s = sides[name];
        // Each side warms up again first: the side that waited through the other's run (its
        // young generation given back: young-generation.mjs) would otherwise start its run
        // colder than one that ran just before, and whichever ran second read measurably slower.
        await run(s.target, { connections: 50, duration: 3 });
        const before = await counted(s.userId);
        got[name] = await measureSide(s, durationS, redis);
        const inRedis = (await counted(s.userId)) - before;
        if (name === "redis") countedInRedis += inRedis;
        else if (inRedis) throw new Error(`the in-process limiter counted ${inRedis} requests in Redis`);
        log(
          `R5 pair ${i + 1}/${pairs} ${name}: ${got[name]!.reqPerSec} req/s, CPU ${got[name]!.cpuMsPerReq} ` +
            `ms/request${name === "redis" ? `, ${inRedis} counted in Redis` : ""}`,
        );
      }
      const [r, m] = [got.redis!, got.memory!];
      const ratio = Math.round((100 * r.reqPerSec) / Math.max(1, m.reqPerSec)) / 100;
      const cpuRatio = Math.round((100 * m.cpuMsPerReq) / Math.max(0.001, r.cpuMsPerReq + (r.redisCpuMsPerReq ?? 0))) / 100;
      out.push({ order: [...order], redis: r, memory: m, ratio, cpuRatio });
    }
  } finally {
    redis.disconnect();
  }
  const m = median(out.map((p) => p.ratio));
  return {
    pairs: out,
    median: m,
    medianCpuRatio: median(out.map((p) => p.cpuRatio)),
    countedInRedis,
    pass: m >= R5_GOAL && out.every((p) => !p.redis.bad && !p.memory.bad),
  };
}

/** Three decimals: the median of an even number of pairs is a midpoint (0.895 printed as 0.90 would read as met). */
export const r5Figure = (r: LimiterResult) => r.median.toFixed(3);

export function printLimiterTable(r: LimiterResult) {
  const head = [
    "R5 pair",
    "first",
    "Redis req/s",
    "in-process req/s",
    "ratio",
    "CPU ms/req Redis (server + redis)",
    "CPU ms/req in process",
    "CPU ratio",
    "non-2xx+errors",
  ];
  const rows = r.pairs.map((p, i) => [
    String(i + 1),
    p.order[0] === "redis" ? "Redis" : "in process",
    String(p.redis.reqPerSec),
    String(p.memory.reqPerSec),
    p.ratio.toFixed(2),
    `${p.redis.cpuMsPerReq} + ${p.redis.redisCpuMsPerReq ?? 0}`,
    String(p.memory.cpuMsPerReq),
    p.cpuRatio.toFixed(2),
    String(p.redis.bad + p.memory.bad),
  ]);
  const out = ["", ...columns(head, rows)];
  out.push(
    `R5 median ratio ${r5Figure(r)} (goal >= ${R5_GOAL}) ${mark(r.pass)}; median CPU ` +
      `ratio ${r.medianCpuRatio.toFixed(2)}; ${r.countedInRedis} requests counted in Redis`,
  );
  process.stdout.write(`${out.join("\n")}\n`);
}
