import { config } from "@/lib/core/config";
import { database, type Db } from "@/lib/adapters/db";
import { attempt, claimDue, logOutcome, nextWork, sweep, type Claimed, type Outcome } from "@/lib/domain/publishing/publish";
import { notifyOwnersSometimes } from "@/lib/domain/owner/notifications";
import { recordMany, type Done } from "@/lib/domain/publishing/batch";
import { postWaitingComments } from "@/lib/domain/publishing/first-comment";
import { platformOf, type Platform } from "@/lib/adapters/platforms";
import { ports, type Ports } from "@/lib/adapters/ports";
import { log } from "@/lib/core/log";
import { repeatPasses, type Passes } from "@/lib/core/passes";
import { errorFacts } from "@/lib/core/redact";
import { startDeliverer } from "@/lib/adapters/webhooks/loop";
import { startCollector } from "@/lib/adapters/metrics/loop";
import { PerAccountQueue } from "./per-account-queue";
import { skipIdlePasses } from "./skip-idle-passes";

// The in-process engine: every SCHEDULER_POLL_MS it asks whether anything has come due
// (skip-idle-passes.ts), and if so sweeps and publishes it. Any number of processes may run it against
// one PostgreSQL; the atomic claim in lib/domain/publishing/publish.ts makes each draft go out once.

export type TickResult = { published: number; retrying: number; failed: number; unknown: number; missed: number; stuck: number };

/**
 * One pass: sweep, then claim and publish due drafts until none is due, so a backlog of
 * thousands drains in one pass. Workers pull from a queue that is refilled (one claim of
 * `batch` rows at a time) before it runs dry, at most `perAccount` calls per account at
 * once (per-account-queue.ts); outcomes are written in bulk every FLUSH_AT
 * drafts or FLUSH_MS. A draft stays `publishing` until its outcome is written, so a process that dies
 * in between leaves it to the stuck sweep (`unknown`), never to a second post.
 * `clock` is injectable for tests.
 */
export async function runDue(
  db: Db,
  opts: { ports?: Ports; clock?: () => Date; batch?: number; concurrency?: number; perAccount?: number } = {},
): Promise<TickResult> {
  const p = opts.ports ?? ports();
  const clock = opts.clock ?? p.clock;
  const w = { clock, platforms: p.platforms, config: p.config };
  const concurrency = opts.concurrency ?? p.config().SCHEDULER_CONCURRENCY;
  const batch = opts.batch ?? concurrency;
  // A draft's account: its own, or (unbound, as drafts scheduled before accounts were) the network's default.
  const account = (c: Claimed) => `${c.userId}:${c.type}:${c.accountId ?? "default"}`;
  const queue = new PerAccountQueue<Claimed>(account, opts.perAccount ?? p.config().SCHEDULER_ACCOUNT_CONCURRENCY);
  const r: TickResult = { published: 0, retrying: 0, failed: 0, unknown: 0, missed: 0, stuck: 0 };
  const s = await db.transaction((tx) => sweep(tx, clock(), p.config())); // changes and their webhook events commit together
  r.missed += s.missed;
  r.stuck += s.stuck;

  let failure: unknown;
  let drained = false;
  let claiming: Promise<void> | undefined;
  const refill = () =>
    (claiming ??= claimDue(db, clock(), batch, p.config())
      .then(
        (rows) => {
          queue.push(rows);
          // Fewer than asked for (of both types together): nothing else is due right now.
          if (rows.length < batch) drained = true;
        },
        (e) => {
          failure ??= e;
          drained = true;
        },
      )
      .finally(() => (claiming = undefined)));

  let pending: Done[] = [];
  let writing: Promise<void> = Promise.resolve();
  let due: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(due);
    due = undefined;
    const items = pending;
    pending = [];
    if (items.length) writing = writing.then(() => db.transaction((tx) => recordMany(tx, items))).catch((e) => void (failure ??= e));
    return writing;
  };

  // One account lookup per user and network for a few seconds of a pass; dropped after a
  // refusal so that the next draft sees a connection that now needs renewing. A long pass
  // looks again: an account the owner removed or replaced meanwhile is not posted to for
  // more than TARGET_FRESH_MS.
  const targets = new Map<string, { at: number; platform: Promise<Platform> }>();
  const target = (c: Claimed) => {
    const key = account(c);
    const now = clock().getTime();
    let t = targets.get(key);
    if (!t || now - t.at > TARGET_FRESH_MS) targets.set(key, (t = { at: now, platform: p.platforms.open(db, c.userId, platformOf(c.type), c.accountId) }));
    return t.platform;
  };

  const worker = async () => {
    for (;;) {
      if (queue.size < concurrency && !drained && !failure) void refill();
      const c = queue.take();
      if (!c) {
        // Queued drafts whose accounts are all at their limit: wait for a call to end.
        if (queue.size) await queue.changed();
        // Done: write what this pass has so far rather than wait for a slow last call.
        else if (drained || failure) return void flush();
        else await claiming;
        continue;
      }
      const o = waitedTooLong(c, clock(), p.config().PUBLISH_STUCK_SECONDS) ? backToScheduled(c, clock()) : await attempt(db, c, w, target(c));
      queue.done(c);
      if (o.status === "failed") targets.delete(account(c));
      pending.push({ c, o, at: clock() });
      logOutcome(c, o);
      r[o.status]++;
      if (pending.length >= FLUSH_AT) void flush();
      else due ??= setTimeout(() => void flush(), FLUSH_MS);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await flush();
  if (failure) throw failure;
  // First comments of the posts just recorded (and any a stopped process left waiting).
  await postWaitingComments(db, w);
  // E-mails about what this and earlier passes found (only with SMTP_URL; never throws).
  await notifyOwnersSometimes(db, p);
  return r;
}

const FLUSH_AT = 200;
/**
 * An outcome waits at most this long to be written, however long the pass goes on (slow
 * calls of one account keep it going): the draft stays `publishing` until then, so a crash
 * meanwhile would leave a post that went out to the stuck sweep as `unknown`.
 */
const FLUSH_MS = 1000;
/** How long a pass posts with one lookup of an account (its connection and token). */
const TARGET_FRESH_MS = 5_000;

// A claimed draft that has waited in its account's lane (behind slow calls of the same
// account) for half the stuck limit is not posted now: a claim waiting in a lane is not
// renewed, so another process's stuck sweep could soon take it, and the owner would be shown
// `unknown` until the attempt found its claim gone (it then posts nothing: attempt()).
// Not posted, it goes back to `scheduled` and a later pass takes it.
const waitedTooLong = (c: Claimed, now: Date, stuckSeconds: number) => !!c.claimedAt && now.getTime() - c.claimedAt.getTime() > (stuckSeconds * 1000) / 2;
const backToScheduled = (c: Claimed, now: Date): Outcome => ({
  status: "retrying",
  platform: platformOf(c.type),
  reason: "waited too long behind this account's other posts; it goes out on the next pass",
  nextAttemptAt: now,
});

const g = globalThis as unknown as { __contentioScheduler?: Passes };

/** Whether this process's publishing loop runs (the server starts it once, at start). */
export const schedulerRunning = () => g.__contentioScheduler !== undefined;

/** Starts the polling loop; with `global` (the server), at most once per process. */
export function startScheduler(opts: { db?: () => Promise<Db>; pollMs?: number; global?: boolean; clock?: () => Date } = {}): Passes {
  if (opts.global && g.__contentioScheduler) return g.__contentioScheduler;
  const getDb = opts.db ?? (async () => (await database()).db);
  const pollMs = opts.pollMs ?? config().SCHEDULER_POLL_MS;
  // A pass runs only when work has come due (skip-idle-passes.ts); after one, the loop sleeps until the
  // next draft is due if that comes before the next poll, so a draft is picked up within
  // milliseconds of its time rather than up to pollMs later. With an injected clock (tests),
  // every tick is a full pass.
  const gate = opts.clock ? undefined : skipIdlePasses();
  const tick = async (): Promise<number> => {
    try {
      const d = await getDb();
      const next = () => nextWork(d, config());
      if (gate && !(await gate.due(d, next))) {
        await notifyOwnersSometimes(d, ports());
        return gate.wait(pollMs);
      }
      const r = await runDue(d, { clock: opts.clock });
      if (r.missed || r.stuck) log("warn", "scheduler sweep", { missed: r.missed, stuck: r.stuck });
      if (!gate) return pollMs;
      await gate.passed(d, next);
      return gate.wait(pollMs);
    } catch (e) {
      // A database outage must not kill the loop; the next tick tries again.
      log("error", "scheduler tick failed", errorFacts(e));
      return pollMs;
    }
  };
  const passes = repeatPasses(tick);
  // Webhooks go out from every process that publishes, on a loop of their own (lib/adapters/webhooks/loop.ts).
  const webhooks = startDeliverer({ db: getDb, pollMs, clock: opts.clock });
  // And posts' engagement is read on a third (lib/adapters/metrics/loop.ts).
  const metrics = startCollector({ db: getDb, pollMs, clock: opts.clock });
  const handle: Passes = {
    stop: async () => {
      await Promise.all([passes.stop(), webhooks.stop(), metrics.stop()]);
      if (opts.global) g.__contentioScheduler = undefined;
    },
  };
  if (opts.global) g.__contentioScheduler = handle;
  return handle;
}
