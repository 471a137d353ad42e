import { Redis } from "ioredis";
import { BODY, jsonPost } from "./http";
import { phase, run, type Phase, type Target } from "./load";
import { cpuMs } from "./procs";
import { freePort, freshStore, seed, startWhole, tempDir, type Store } from "./servers";

// R5 of the quality plan: fetch_item req/s through the whole stack with the rate limiter's
// counters on Redis ÷ the same in process. One build, one fresh PostgreSQL database, one user;
// RATE_LIMIT_SCALE (startWhole) lifts the limit so nothing is refused, but every request is
// still counted, which the bench checks in Redis. Pairs alternate which store runs first.
const GOAL = 0.9;
const REDIS = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

type Side = { reqPerSec: number; cpuMsPerReq: number; p99: number; bad: number };
export type LimiterPair = { order: string[]; redis: Side; memory: Side; ratio: number };
export type LimiterResult = { pairs: LimiterPair[]; median: number; countedInRedis: number; pass: boolean };

async function side(store: Store, port: number, tmp: string, headers: Record<string, string>, body: string, durationS: number): Promise<Side> {
  const whole = await startWhole(store, port, tmp);
  try {
    const t: Target = { url: `${whole.url}/fetch_item`, headers, body, pid: whole.proc.pid };
    await jsonPost(t.url, body, headers);
    await run(t, { connections: 50, duration: 3 }); // warm-up, not counted
    const cpu0 = cpuMs(t.pid);
    const p: Phase = phase(await run(t, { connections: 50, duration: durationS }));
    const cpuMsPerReq = Math.round((100 * (cpuMs(t.pid) - cpu0)) / Math.max(1, p.requests)) / 100;
    return { reqPerSec: p.reqPerSec, cpuMsPerReq, p99: p.p99, bad: p.non2xx + p.errors };
  } finally {
    await whole.proc.stop();
  }
}

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : Math.round(50 * (s[mid - 1] + s[mid])) / 100;
}

export async function benchLimiter(pgAdmin: string, durationS: number, pairs: number, log: (s: string) => void): Promise<LimiterResult> {
  const tmp = tempDir();
  const store = await freshStore("postgres", tmp, pgAdmin);
  const port = await freePort();
  const { userId, token } = await seed(store, `http://127.0.0.1:${port}`);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  // The draft is created once (in process), then read by both servers.
  const first = await startWhole(store, port, tmp);
  const created = JSON.parse(await jsonPost(`${first.url}/create_draft`, JSON.stringify({ type: "post", body: BODY }), headers));
  await first.proc.stop();
  const body = JSON.stringify({ id: created.id, type: "post" });

  const redis = new Redis(REDIS, { lazyConnect: true });
  await redis.connect();
  const counted = async () => {
    const keys = await redis.keys(`rl:req:${userId}:*`);
    return keys.length ? (await redis.mget(keys)).reduce((n, v) => n + Number(v ?? 0), 0) : 0;
  };
  const out: LimiterPair[] = [];
  let countedInRedis = 0;
  try {
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? ["redis", "memory"] : ["memory", "redis"];
      const got: Partial<Record<"redis" | "memory", Side>> = {};
      for (const name of order as Array<"redis" | "memory">) {
        log(`R5 pair ${i + 1}/${pairs}: limiter ${name === "redis" ? `on Redis (${REDIS})` : "in process"}, 50 connections, ${durationS} s`);
        const before = await counted();
        got[name] = await side(name === "redis" ? { ...store, REDIS_URL: REDIS } : store, port, tmp, headers, body, durationS);
        const inRedis = (await counted()) - before;
        if (name === "redis") countedInRedis += inRedis;
        else if (inRedis) throw new Error(`the in-process run counted ${inRedis} requests in Redis`);
        log(`  ${got[name]!.reqPerSec} req/s, CPU ${got[name]!.cpuMsPerReq} ms/request${name === "redis" ? `, ${inRedis} counted in Redis` : ""}`);
      }
      const ratio = Math.round((100 * got.redis!.reqPerSec) / Math.max(1, got.memory!.reqPerSec)) / 100;
      out.push({ order, redis: got.redis!, memory: got.memory!, ratio });
    }
  } finally {
    redis.disconnect();
  }
  const m = median(out.map((p) => p.ratio));
  return { pairs: out, median: m, countedInRedis, pass: m >= GOAL && out.every((p) => !p.redis.bad && !p.memory.bad) };
}

export function printLimiterTable(r: LimiterResult) {
  const lines = ["", "R5  pair  first       Redis req/s  in-process req/s  ratio  CPU ms/req Redis / in process  non-2xx+errors"];
  for (const [i, p] of r.pairs.entries())
    lines.push(
      `    ${String(i + 1).padEnd(4)}  ${(p.order[0] === "redis" ? "Redis" : "in process").padEnd(10)}  ${String(p.redis.reqPerSec).padEnd(11)}  ` +
        `${String(p.memory.reqPerSec).padEnd(16)}  ${p.ratio.toFixed(2).padEnd(5)}  ${`${p.redis.cpuMsPerReq} / ${p.memory.cpuMsPerReq}`.padEnd(30)}  ${p.redis.bad + p.memory.bad}`,
    );
  lines.push(`R5 median ratio ${r.median.toFixed(2)} (goal >= ${GOAL}) ${r.pass ? "pass" : "FAIL"}; ${r.countedInRedis} requests counted in Redis`);
  process.stdout.write(`${lines.join("\n")}\n`);
}
