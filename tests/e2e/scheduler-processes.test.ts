import { randomUUID } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { authAccounts, postDrafts, tweetDrafts } from "@/drizzle/schema";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { startFakePlatforms, type FakePlatforms } from "../helpers/fake-platforms";
import { kill, killAll, spawnScheduler } from "../helpers/scheduler-spawn";

// Several publishing processes on one PostgreSQL, publishing tweets through the real X
// adapter to a fake X on loopback; one process is killed with SIGKILL mid-publish.
const PG = !!process.env.DATABASE_URL;
const database = withDatabase();
let fake: FakePlatforms;

async function env(overrides: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const [{ name }] = (await database.current().db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    ...process.env,
    DATABASE_URL: url.toString(),
    X_CLIENT_ID: "x-app",
    X_CLIENT_SECRET: "x-secret",
    X_API_URL: fake.url,
    PUBLISH_STUCK_SECONDS: "2",
    LOG_LEVEL: "error",
    SCHEDULER_POLL_MS: "100",
    ...overrides,
  };
}

/** `n` tweets of a user with a connected X account, all due at `at`. */
async function dueTweets(n: number, at: Date) {
  const u = await makeUser({ publishing: true });
  const token = `x-tok-${randomUUID()}`;
  fake.grant("x", token);
  const d = await db();
  await d.insert(authAccounts).values({
    userId: u.id,
    type: "oauth",
    provider: "twitter",
    providerAccountId: randomUUID(),
    access_token: token,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    handle: "w",
  });
  const posts = await d
    .insert(postDrafts)
    .values(Array.from({ length: n }, (_, i) => ({ userId: u.id, title: `P${i}`, body: `p${i}` })))
    .returning({ id: postDrafts.id });
  const texts = posts.map(() => `tweet ${randomUUID()}`);
  const tweets = await d
    .insert(tweetDrafts)
    .values(posts.map((p, i) => ({ userId: u.id, postDraftId: p.id, title: "t", body: texts[i], status: "scheduled" as const, scheduledFor: at })))
    .returning({ id: tweetDrafts.id });
  return { ids: tweets.map((t) => t.id), texts };
}

const states = async (ids: string[]) =>
  await (
    await db()
  )
    .select({
      id: tweetDrafts.id,
      status: tweetDrafts.status,
      body: tweetDrafts.body,
      lateMs: sql<number>`extract(epoch from (${tweetDrafts.publishedAt} - ${tweetDrafts.scheduledFor})) * 1000`,
    })
    .from(tweetDrafts)
    .where(inArray(tweetDrafts.id, ids));

async function until(pred: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await pred()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

beforeAll(async () => {
  fake = await startFakePlatforms();
  // One user's thousand posts at once: past X's 15-minute window, which is not what this measures.
  fake.xPostsPer15Min = 1_000_000;
});
afterAll(async () => {
  await killAll();
  await fake.close();
});

describe.skipIf(!PG)("publishing processes on one PostgreSQL", () => {
  it("1,000 tweets due at the same second go out once each, soon after their time", async () => {
    // One account's tweets go out one after another: on a busy machine the last waits longer
    // than the 2 s after which a claim counts as stuck here (the next test's concern).
    const e = await env({ PUBLISH_STUCK_SECONDS: "60" });
    await spawnScheduler(e);
    await spawnScheduler(e);
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3000);
    const { ids, texts } = await dueTweets(1000, at);
    await until(async () => (await states(ids)).every((s) => s.status === "published"), 90_000);
    const rows = await states(ids);
    expect(rows.filter((r) => r.status !== "published")).toEqual([]);
    expect(texts.filter((t) => fake.count("x", t) !== 1)).toEqual([]);
    const late = rows.map((r) => Number(r.lateMs)).sort((a, b) => a - b);
    const q = (p: number) => late[Math.min(late.length - 1, Math.floor(p * late.length))];
    // R6 of docs/performance.md: lateness = published_at - scheduled_for.
    process.stderr.write(
      `[R6] 1000 due at one second, 2 processes: lateness p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${late[late.length - 1]} ms, duplicates 0\n`,
    );
    expect(late[0]).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it("a process killed mid-publish leaves no duplicate and no silently stuck draft", async () => {
    const e = await env();
    const victim = await spawnScheduler(e);
    const { ids, texts } = await dueTweets(300, new Date(Date.now() - 500));
    await until(async () => (await states(ids)).some((s) => s.status === "published"), 20_000);
    await kill(victim);
    await spawnScheduler(e);
    await until(async () => (await states(ids)).every((s) => s.status === "published" || s.status === "unknown"), 30_000);
    const rows = await states(ids);
    expect(rows.filter((r) => r.status !== "published" && r.status !== "unknown")).toEqual([]);
    expect(texts.filter((t) => fake.count("x", t) > 1)).toEqual([]);
    for (const r of rows) if (r.status === "published") expect(fake.count("x", r.body)).toBe(1);
  }, 90_000);
});
