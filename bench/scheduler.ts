import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase, type Db } from "@/lib/adapters/db";
import { createUser } from "@/lib/domain/owner/users";
import { startScheduler } from "@/lib/adapters/scheduler";
import { authAccounts, postDrafts, tweetDrafts } from "@/drizzle/schema";
import { fakePlatformEnv, startFakePlatforms } from "../tests/helpers/fake-platforms";
import { cpuMs, sleep, startProcess, statFields } from "./procs";
import { columns, mark } from "./report";
import { freshStore, tempDir } from "./servers";

// R6 of docs/performance.md: lateness (published_at - scheduled_for) of N drafts due at the same
// second, published by the in-process scheduler (one or two processes on one fresh
// PostgreSQL database) through the real LinkedIn and X adapters to the tests' fake platforms,
// answering in 50 ms. Duplicates and missing posts are counted from what the fakes received.
const USERS = 4;
const ANSWER_MS = 50;
export const R6_GOAL = { p50: 2000, p99: 10_000 };

export type SchedulerResult = {
  drafts: number;
  processes: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
  duplicates: number;
  missing: number;
  notPublished: number;
  /** CPU of the scheduler processes per draft, from just before the due time to the end: steadier than lateness on a busy machine. */
  cpuMsPerDraft: number;
  pass: boolean;
};

/** `n` drafts (half LinkedIn posts, half tweets) for a few users, scheduled a day ahead. */
async function seed(db: Db, n: number) {
  const texts: string[] = [];
  for (let u = 0; u < USERS; u++) {
    const user = await createUser(db, {
      email: `sched-${u}-${randomUUID()}@example.com`,
      password: randomUUID(),
      plan: "creator",
      complete: true,
      publishingAllowed: true,
    });
    const later = Math.floor(Date.now() / 1000) + 86_400;
    await db.insert(authAccounts).values([
      { userId: user.id, type: "oauth", provider: "linkedin", providerAccountId: `li-${user.id}`, access_token: "li-access-0", expires_at: later },
      {
        userId: user.id,
        type: "oauth",
        provider: "twitter",
        providerAccountId: `x-${user.id}`,
        access_token: "x-access-0",
        expires_at: later,
        handle: "bench",
      },
    ]);
    const mine = Math.floor(n / USERS) + (u < n % USERS ? 1 : 0);
    const at = new Date(Date.now() + 86_400_000);
    for (let i = 0; i < mine; i += 1000) {
      const k = Math.min(1000, mine - i);
      const posts = Array.from({ length: k }, () => `bench ${randomUUID()}`);
      const half = Math.ceil(k / 2);
      // Posts of the first half are scheduled; the others are the tweets' (unscheduled) parents.
      const rows = await db
        .insert(postDrafts)
        .values(posts.map((body, j) => ({ userId: user.id, title: "b", body, ...(j < half && { status: "scheduled" as const, scheduledFor: at }) })))
        .returning({ id: postDrafts.id });
      const tweets = rows.slice(half).map(() => `bench ${randomUUID()}`);
      if (tweets.length)
        await db
          .insert(tweetDrafts)
          .values(
            tweets.map((body, j) => ({ userId: user.id, postDraftId: rows[half + j].id, title: "t", body, status: "scheduled" as const, scheduledFor: at })),
          );
      texts.push(...posts.slice(0, half), ...tweets);
    }
  }
  return texts;
}

const counts = async (db: Db) =>
  (await db.execute(
    sql`select status, count(*)::int as n
      from (select status from post_drafts where scheduled_for is not null union all select status from tweet_drafts) s group by status`,
  )) as unknown as { status: string; n: number }[];

/**
 * PostgreSQL's server process when it runs on this machine: its CPU and its backends' is read
 * from /proc around the pass (the schedulers' connections live until they stop; the bench's
 * polling of the counts below is in it too).
 */
async function postmaster(db: Db): Promise<number | null> {
  const [r] = (await db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { pid: number }[];
  try {
    return Number(statFields(r.pid)[1]); // the parent: the postmaster
  } catch {
    return null;
  }
}

async function once(n: number, processes: number, pgAdmin: string, log: (s: string) => void): Promise<SchedulerResult> {
  const tmp = tempDir();
  const store = await freshStore("postgres", tmp, pgAdmin);
  const fake = await startFakePlatforms({ answerDelayMs: ANSWER_MS });
  fake.xPostsPer15Min = Number.MAX_SAFE_INTEGER; // one user's backlog at once, past X's 15-minute window
  const d = await openDatabase({ url: store.DATABASE_URL });
  try {
    const texts = await seed(d.db, n);
    const env = {
      ...process.env,
      ...store,
      LOG_LEVEL: "warn",
      NODE_OPTIONS: "",
      ...fakePlatformEnv(fake),
    };
    const procs = [];
    for (let i = 0; i < processes; i++) {
      const logFile = path.join(tmp, `scheduler-${i}.log`);
      // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the schedulers.
      const args = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
      procs.push(startProcess(process.execPath, [...args, "--import", "tsx", path.join(process.cwd(), "bench/scheduler.ts"), "--child"], env, logFile));
      for (let t = 0; !fs.readFileSync(logFile, "utf8").includes("scheduler ready"); t++) {
        if (t > 400) throw new Error(`scheduler ${i} did not start:\n${fs.readFileSync(logFile, "utf8")}`);
        await sleep(50);
      }
    }
    // Everything due at one whole second, two seconds from now.
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000);
    await d.db.execute(sql`update post_drafts set scheduled_for = ${at.toISOString()}::timestamptz where status = 'scheduled'`);
    await d.db.execute(sql`update tweet_drafts set scheduled_for = ${at.toISOString()}::timestamptz where status = 'scheduled'`);
    log(`scheduler: ${n} drafts due at ${at.toISOString()}, ${processes} process(es)`);
    const cpu0 = procs.reduce((sum, p) => sum + cpuMs(p.pid), 0);
    const own0 = process.cpuUsage(); // this process: the fake platforms (and the polling below)
    const pg = await postmaster(d.db);
    const pg0 = pg ? cpuMs(pg) : NaN;
    const deadline = Date.now() + 120_000 + n * 20;
    while (Date.now() < deadline && (await counts(d.db)).some((c) => c.status === "scheduled" || c.status === "publishing")) await sleep(250);
    const cpu = procs.reduce((sum, p) => sum + cpuMs(p.pid), 0) - cpu0;
    const own = process.cpuUsage(own0);
    const pgCpu = pg ? cpuMs(pg) - pg0 : NaN;
    for (const p of procs) await p.stop();
    const late = (
      (await d.db.execute(sql`
      select extract(epoch from (published_at - scheduled_for)) * 1000 as ms from post_drafts where status = 'published'
      union all select extract(epoch from (published_at - scheduled_for)) * 1000 from tweet_drafts where status = 'published'`)) as unknown as { ms: string }[]
    )
      .map((r) => Number(r.ms))
      .sort((a, b) => a - b);
    const q = (p: number) => Math.round(late[Math.min(late.length - 1, Math.floor(p * late.length))] ?? NaN);
    if (process.env.BENCH_TENTHS) log(`tenths: ${[0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map(q).join(" ")}`);
    const seen = new Map<string, number>();
    for (const t of [...fake.posts.linkedin, ...fake.posts.x]) seen.set(t, (seen.get(t) ?? 0) + 1);
    const duplicates = texts.reduce((s, t) => s + Math.max(0, (seen.get(t) ?? 0) - 1), 0);
    const missing = texts.filter((t) => !seen.get(t)).length;
    const notPublished = n - late.length;
    const max = Math.round(late[late.length - 1] ?? NaN);
    const r = {
      drafts: n,
      processes,
      p50: q(0.5),
      p99: q(0.99),
      max,
      perSecond: Math.round((late.length * 1000) / Math.max(1, max)),
      duplicates,
      missing,
      notPublished,
      cpuMsPerDraft: Math.round((100 * cpu) / n) / 100,
      pass: false,
    };
    r.pass = r.p50 <= R6_GOAL.p50 && r.p99 <= R6_GOAL.p99 && !duplicates && !missing && !notPublished;
    log(
      `scheduler: p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms, ${r.perSecond}/s, duplicates ${duplicates}, ` +
        `missing ${missing}, not published ${notPublished}, scheduler CPU ${r.cpuMsPerDraft} ` +
        `ms/draft, fake platforms CPU ${Math.round((own.user + own.system) / n / 10) / 100} ms/draft, ` +
        `PostgreSQL CPU ${pg ? `${Math.round((100 * pgCpu) / n) / 100} ms/draft` : "not on this machine"}`,
    );
    return r;
  } finally {
    await d.close();
    await fake.close();
  }
}

/** 1,000 and 10,000 drafts, with one and with two scheduler processes (BENCH_SCHEDULER_SIZES, BENCH_SCHEDULER_PROCS). */
export async function benchScheduler(pgAdmin: string, log: (s: string) => void): Promise<SchedulerResult[]> {
  const sizes = (process.env.BENCH_SCHEDULER_SIZES ?? "1000,10000").split(",").map(Number);
  const procs = (process.env.BENCH_SCHEDULER_PROCS ?? "1,2").split(",").map(Number);
  const out: SchedulerResult[] = [];
  for (const n of sizes) for (const p of procs) out.push(await once(n, p, pgAdmin, log));
  return out;
}

export function printSchedulerTable(rows: SchedulerResult[]) {
  const head = ["drafts", "procs", "p50", "p99", "max", "drafts/s", "CPU/draft", "dup", "missing", "R6"];
  const cells = rows.map((r) => [
    String(r.drafts),
    String(r.processes),
    `${r.p50} ms`,
    `${r.p99} ms`,
    `${r.max} ms`,
    String(r.perSecond),
    `${r.cpuMsPerDraft} ms`,
    String(r.duplicates),
    String(r.missing + r.notPublished),
    mark(r.pass),
  ]);
  const goal =
    `R6 goal (judged at 10,000): p50 <= ${R6_GOAL.p50} ms, p99 <= ${R6_GOAL.p99} ms, ` +
    `0 duplicates, 0 missing; ` +
    `fake platform answers in ${ANSWER_MS} ms.`;
  process.stdout.write(`\n${[...columns(head, cells), "", goal].join("\n")}\n`);
}

// The child: one publishing process, as the server runs it (V8's memory settings included), without Next.
if (process.argv.includes("--child")) {
  ((await import(path.join(process.cwd(), "server", "memory.mjs"))) as { settleMemory: () => void }).settleMemory();
  const d = await openDatabase({ url: process.env.DATABASE_URL });
  const loop = startScheduler({ db: async () => d.db });
  process.on("SIGTERM", () => void loop.stop().then(() => process.exit(0)));
  process.stdout.write("scheduler ready\n");
}
