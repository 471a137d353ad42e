import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { db, openDatabase, type Database, type Db } from "@/lib/adapters/db";
import { draftHistory } from "@/lib/domain/drafts/history";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { claimDue } from "@/lib/domain/publishing/publish";
import { config } from "@/lib/core/config";
import { runDue, startScheduler } from "@/lib/adapters/scheduler";
import { postDrafts, sandboxPosts, tweetDrafts } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { approved, row, sandboxCount } from "../helpers/publishing";

const database = withDatabase();
const extra: Database[] = [];
afterAll(async () => {
  for (const d of extra) await d.close();
});

/** `n` posts and `n` tweets of the user, all due `secondsAgo` ago. */
async function due(userId: string, n: number, secondsAgo = 1) {
  const at = new Date(Date.now() - secondsAgo * 1000);
  const d = await db();
  const posts = await d
    .insert(postDrafts)
    .values(
      Array.from({ length: n }, (_, i) => ({ userId, title: `P${i}`, body: `Post ${i} ${randomUUID()}`, status: "scheduled" as const, scheduledFor: at })),
    )
    .returning({ id: postDrafts.id });
  const tweets = await d
    .insert(tweetDrafts)
    .values(posts.map((p, i) => ({ userId, postDraftId: p.id, title: `T${i}`, body: `Tweet ${i}`, status: "scheduled" as const, scheduledFor: at })))
    .returning({ id: tweetDrafts.id });
  return [...posts.map((p) => p.id), ...tweets.map((t) => t.id)];
}

/** Draft ids the sandbox received more than once, and how many distinct drafts it received. */
async function duplicates(ids: string[]) {
  const rows = await (
    await db()
  )
    .select({ draftId: sandboxPosts.draftId, n: sql<number>`count(*)::int` })
    .from(sandboxPosts)
    .where(inArray(sandboxPosts.draftId, ids))
    .groupBy(sandboxPosts.draftId);
  return { posted: rows.length, twice: rows.filter((r) => r.n > 1).length };
}

describe("scheduler", () => {
  it("two scheduler loops on one database publish every due draft exactly once", async () => {
    const u = await makeUser({ publishing: true });
    const ids = await due(u.id, 150);
    const d = await db();
    await Promise.all([runDue(d, { batch: 40, concurrency: 4 }), runDue(d, { batch: 40, concurrency: 4 })]);
    expect(await duplicates(ids)).toEqual({ posted: 300, twice: 0 });
  });

  it("separate connection pools (separate processes) on PostgreSQL never post a draft twice", async () => {
    if (database.current().kind !== "postgres") return; // PGlite has one connection by design
    const [{ name }] = (await database.current().db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const pools: Db[] = [database.current().db];
    for (let i = 0; i < 2; i++) {
      const o = await openDatabase({ url: url.toString() });
      extra.push(o);
      pools.push(o.db);
    }
    const u = await makeUser({ publishing: true });
    const ids = await due(u.id, 200);
    await Promise.all(pools.map((p) => runDue(p, { batch: 25, concurrency: 8 })));
    expect(await duplicates(ids)).toEqual({ posted: 400, twice: 0 });
  });

  it("a claim takes at most its batch of each type, however many drafts are due", async () => {
    // Rows just written leave the planner with no statistics. A plan that ran the limited
    // subquery once per candidate row claimed 358 of 500 with a batch of 200: drafts marked
    // publishing long before any call could be made for them, and a sort per candidate.
    const u = await makeUser({ publishing: true });
    const ids = await due(u.id, 300);
    const d = await db();
    const batches: Array<{ post: number; tweet: number }> = [];
    for (let claimed = 0; claimed < ids.length;) {
      const rows = await claimDue(d, new Date(), 50, config());
      expect(rows.length).toBeGreaterThan(0);
      claimed += rows.length;
      batches.push({ post: rows.filter((r) => r.type === "post").length, tweet: rows.filter((r) => r.type === "tweet").length });
    }
    expect(batches).toEqual(Array.from({ length: 6 }, () => ({ post: 50, tweet: 50 })));
  });

  it("the polling loop publishes what becomes due, and can be stopped", async () => {
    const u = await makeUser({ publishing: true });
    const ids = await due(u.id, 3);
    const loop = startScheduler({ pollMs: 20, db: async () => database.current().db });
    const deadline = Date.now() + 5000;
    while ((await duplicates(ids)).posted < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await loop.stop();
    expect(await duplicates(ids)).toEqual({ posted: 6, twice: 0 });
  });

  it("a draft later than SCHEDULE_MAX_LATENESS_SECONDS fails as missed instead of posting late", async () => {
    const u = await makeUser({ publishing: true });
    const [late] = await due(u.id, 1, 7201);
    const [onTime] = await due(u.id, 1, 7100);
    await runDue(await db());
    expect(await sandboxCount(late)).toBe(0);
    expect(await sandboxCount(onTime)).toBe(1);
    const r = await row("post", late);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/^missed/);
    const item = expectOk(await call("fetch_item", { type: "post", id: late }, { token: u.token }), fetchItemOp.output);
    expect(item.notes?.join(" ")).toContain("missed");
    // The owner's history of the draft says so too.
    expect((await draftHistory(await db(), u.id, "post", late)).map((h) => [h.kind, h.actor, h.detail.reason?.slice(0, 6)])).toContainEqual([
      "failed",
      "scheduler",
      "missed",
    ]);
    // The owner can put it back on the schedule.
    const again = await approved(u, "schedule_content", { type: "post", id: late, scheduled_for: new Date(Date.now() + 3600_000).toISOString() });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it("a draft left in publishing by a dead process becomes unknown, is shown, and is never re-posted", async () => {
    const u = await makeUser({ publishing: true });
    const [stuck, fresh] = await due(u.id, 2);
    const d = await db();
    await d
      .update(postDrafts)
      .set({ status: "publishing", claimedAt: new Date(Date.now() - 301_000) })
      .where(eq(postDrafts.id, stuck));
    await d.update(postDrafts).set({ status: "publishing", claimedAt: new Date() }).where(eq(postDrafts.id, fresh));
    await runDue(d);
    expect((await row("post", stuck)).status).toBe("unknown");
    expect((await row("post", fresh)).status).toBe("publishing");
    expect(await sandboxCount(stuck)).toBe(0);
    const item = expectOk(await call("fetch_item", { type: "post", id: stuck }, { token: u.token }), fetchItemOp.output);
    expect(item.notes?.join(" ")).toMatch(/may or may not have been posted/);
    expect((await draftHistory(d, u.id, "post", stuck)).map((h) => h.kind)).toContain("unknown");
    expect((await draftHistory(d, u.id, "post", fresh)).map((h) => h.kind)).not.toContain("unknown");
    // Neither the scheduler nor publish_now posts an unknown draft again.
    await runDue(d);
    expectError(await approved(u, "publish_now", { type: "post", id: stuck }), 422, "action_failed");
    expect(await sandboxCount(stuck)).toBe(0);
  });
});
