import { config } from "@/lib/config";
import { database, type Db } from "@/lib/db";
import { claimDue, publishClaimed, sweep, type Outcome } from "@/lib/domain/publishing";
import { log } from "@/lib/log";

// The in-process engine: every SCHEDULER_POLL_MS it sweeps and publishes what is due. Any
// number of processes may run it against one PostgreSQL; the atomic claim in
// lib/domain/publishing.ts makes each draft go out once.

export type TickResult = { published: number; retrying: number; failed: number; unknown: number; missed: number; stuck: number };

/** Runs `fn` over `items`, at most `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

/**
 * One pass: sweep, then claim and publish due drafts batch after batch until none is due,
 * so a backlog of thousands drains in one pass. `clock` is injectable for tests.
 */
export async function runDue(
  db: Db,
  opts: { clock?: () => Date; batch?: number; concurrency?: number } = {},
): Promise<TickResult> {
  const clock = opts.clock ?? (() => new Date());
  const batch = opts.batch ?? 200;
  const r: TickResult = { published: 0, retrying: 0, failed: 0, unknown: 0, missed: 0, stuck: 0 };
  const s = await sweep(db, clock());
  r.missed += s.missed;
  r.stuck += s.stuck;
  for (;;) {
    const claimed = await claimDue(db, clock(), batch);
    if (!claimed.length) break;
    await pool(claimed, opts.concurrency ?? 16, async (c) => {
      const o: Outcome = await publishClaimed(db, c, clock);
      r[o.status]++;
    });
    if (claimed.length < batch) break;
  }
  return r;
}

type Loop = { stop: () => Promise<void> };
const g = globalThis as unknown as { __contentioScheduler?: Loop };

/** Starts the polling loop; with `global` (the server), at most once per process. */
export function startScheduler(opts: { db?: () => Promise<Db>; pollMs?: number; global?: boolean; clock?: () => Date } = {}): Loop {
  if (opts.global && g.__contentioScheduler) return g.__contentioScheduler;
  const getDb = opts.db ?? (async () => (await database()).db);
  const pollMs = opts.pollMs ?? config().SCHEDULER_POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      const r = await runDue(await getDb(), { clock: opts.clock });
      if (r.missed || r.stuck) log("warn", "scheduler sweep", { missed: r.missed, stuck: r.stuck });
    } catch (e) {
      // A database outage must not kill the loop; the next tick tries again.
      log("error", "scheduler tick failed", { error: e instanceof Error ? e.message : String(e) });
    }
  };
  const loop = () => {
    if (stopped) return;
    running = tick().finally(() => {
      if (!stopped) timer = setTimeout(loop, pollMs);
      timer?.unref?.();
    });
  };
  loop();
  const handle: Loop = {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      if (opts.global) g.__contentioScheduler = undefined;
    },
  };
  if (opts.global) g.__contentioScheduler = handle;
  return handle;
}
