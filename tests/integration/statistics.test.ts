import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/adapters/db/rows";
import { keepStatistics, refreshStatistics, STATISTICS_FROM_BYTES } from "@/lib/adapters/db/statistics";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

// The planner's choice for a search (walk recent items, or read a word's matches) depends on
// knowing how common the word is; neither PGlite nor a PostgreSQL without autovacuum would
// ever learn it as the service's tables grow, so the service gathers statistics itself.
describe("statistics for the planner as the store grows", () => {
  const database = withDatabase();
  const query = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await database.current().db.execute(q));

  const writeDrafts = (userId: string, n: number) =>
    database.current().db.execute(sql`insert into post_drafts (user_id, title, body, status)
      select ${userId}::uuid, 'Notes ' || g, repeat('Our customers told us what they wanted, and then did something else. ', 4) || 'Week ' || g || '.', 'draft'
      from generate_series(1, ${n}) g`);
  const bytes = async () => Number((await query<{ n: string }>(sql`select pg_relation_size('post_drafts') as n`))[0].n);
  const knownWords = async () =>
    (
      await query<{ elems: string | string[] | null }>(
        sql`select most_common_elems::text as elems from pg_stats where tablename = 'post_drafts' and attname = 'search'`,
      )
    )[0]?.elems ?? null;

  it("leaves small tables alone, analyzes a table once it is large, and again only after it has grown by half", async () => {
    const user = await makeUser();
    await writeDrafts(user.id, 100);
    expect(await refreshStatistics(database.current())).toEqual([]);
    expect(await knownWords()).toBeNull();

    await writeDrafts(user.id, 5000);
    const size = await bytes();
    expect(size).toBeGreaterThan(STATISTICS_FROM_BYTES);
    expect(await refreshStatistics(database.current())).toContain("post_drafts");
    // The planner now knows the word is in every draft.
    expect(String(await knownWords())).toContain("custom");

    await writeDrafts(user.id, 500);
    expect(await refreshStatistics(database.current())).not.toContain("post_drafts");

    await writeDrafts(user.id, 3000);
    expect(await bytes()).toBeGreaterThan(1.5 * size);
    expect(await refreshStatistics(database.current())).toContain("post_drafts");
  });

  it("the server gathers them in the background from its start, and a database it cannot reach yet only reports", async () => {
    const errors: unknown[] = [];
    const analyzed: string[][] = [];
    const report = { analyzed: (tables: string[]) => analyzed.push(tables), failed: (e: unknown) => errors.push(e) };
    const unreachable = keepStatistics(() => Promise.reject(new Error("not reachable")), report);
    await expect.poll(() => errors.length).toBe(1);
    await unreachable.stop();

    const user = await makeUser();
    const pages = async () => Number((await query<{ n: number }>(sql`select relpages as n from pg_class where relname = 'post_drafts'`))[0].n);
    const before = await pages();
    await writeDrafts(user.id, before * 20); // well over half again as many pages
    const upkeep = keepStatistics(async () => database.current(), report);
    try {
      await expect.poll(() => analyzed.length, { timeout: 10_000 }).toBe(1);
    } finally {
      await upkeep.stop();
    }
    expect(analyzed[0]).toContain("post_drafts");
    expect(await pages()).toBeGreaterThan(1.5 * before);
    expect(errors).toHaveLength(1);
  });
});
