import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { searchContentOp } from "@/lib/operations/drafts/search-content";
import { RANKED } from "@/lib/domain/drafts/search";
import { articles, ideas, postDrafts, series } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

type Result = { id: string; type: string; title: string; snippet: string; status: string; platform: string | null };

async function post(u: TestUser, body: string, title?: string) {
  return expectOk(await call("create_draft", { type: "post", body, ...(title && { title }) }, { token: u.token }), createDraftOp.output);
}
async function search(u: TestUser, input: Record<string, unknown>) {
  return expectOk(await call("search_content", input, { token: u.token }), searchContentOp.output) as { results: Result[]; next_cursor: string | null };
}
const ids = (r: { results: Result[] }) => r.results.map((x) => x.id);
// updated_at has millisecond resolution; keep "most recent" unambiguous.
const tick = () => new Promise((r) => setTimeout(r, 5));

describe("search_content", () => {
  it("ranks an item matching in title and body above one matching only in its body", async () => {
    const u = await makeUser();
    const strong = await post(u, "What kubernetes taught our team about rollouts", "Kubernetes lessons");
    await tick();
    const weak = await post(u, "Spent the weekend reading; kubernetes came up once.", "Weekend notes");
    await post(u, "Nothing relevant here", "Unrelated");
    const r = await search(u, { query: "kubernetes" });
    expect(ids(r)).toEqual([strong.id, weak.id]);
    expect(r.results[0]).toMatchObject({ type: "post", title: "Kubernetes lessons", platform: "pronet", status: "draft" });
  });

  it("matches word forms (English stemming)", async () => {
    const u = await makeUser();
    const d = await post(u, "We ship small changes every day.");
    expect(ids(await search(u, { query: "shipping" }))).toEqual([d.id]);
    expect(ids(await search(u, { query: "shipped changes" }))).toEqual([d.id]);
    expect(ids(await search(u, { query: "zebra" }))).toEqual([]);
  });

  it("finds a thread by any of its parts, and no longer by a part that was edited away", async () => {
    const u = await makeUser();
    const thread = [{ text: "Part two: the rollback plan." }, { text: "Part three: what the kubernetes operator did at 3 am." }];
    const t = expectOk(
      await call("create_draft", { type: "tweet", body: "A thread about last night's outage", thread }, { token: u.token }),
      createDraftOp.output,
    );
    const found = await search(u, { query: "kubernetes operator", types: ["tweet"] });
    expect(ids(found)).toEqual([t.id]);
    // The snippet is the first part's text, as for any tweet.
    expect(found.results[0].snippet).toBe("A thread about last night's outage");
    expect(ids(await search(u, { query: "rollback" }))).toEqual([t.id]);
    const edited = await call("update_draft", { type: "tweet", id: t.id, thread: [{ text: "Part two: the postmortem." }] }, { token: u.token });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(ids(await search(u, { query: "kubernetes" }))).toEqual([]);
    expect(ids(await search(u, { query: "postmortem" }))).toEqual([t.id]);
  });

  it("lists the most recently updated first without a query", async () => {
    const u = await makeUser();
    const a = await post(u, "first");
    await tick();
    const b = await post(u, "second");
    await tick();
    const c = await post(u, "third");
    await tick();
    expect((await call("update_draft", { type: "post", id: a.id, body: "first, edited" }, { token: u.token })).status).toBe(200);
    expect(ids(await search(u, {}))).toEqual([a.id, c.id, b.id]);
    expect(ids(await search(u, { query: "  " }))).toEqual([a.id, c.id, b.id]);
  });

  it("filters by type, status and pillar", async () => {
    const u = await makeUser();
    const tweet = expectOk(await call("create_draft", { type: "tweet", body: "growth tweet" }, { token: u.token }), createDraftOp.output);
    const d = await db();
    const [idea] = await d.insert(ideas).values({ userId: u.id, title: "growth idea", pillar: "Growth" }).returning();
    const [article] = await d.insert(articles).values({ userId: u.id, title: "growth article", body: "long form", status: "published" }).returning();
    const [s] = await d.insert(series).values({ userId: u.id, title: "growth series", description: "weekly" }).returning();

    const tweets = await search(u, { query: "growth", types: ["tweet"] });
    expect(tweets.results.map((x) => [x.id, x.type, x.platform])).toEqual([[tweet.id, "tweet", "micro"]]);
    const two = await search(u, { types: ["idea", "series"] });
    expect(ids(two).sort()).toEqual([idea.id, s.id].sort());
    expect(two.results.find((x) => x.id === s.id)?.status).toBe("active");

    await d
      .update(postDrafts)
      .set({ status: "scheduled", scheduledFor: new Date(Date.now() + 3_600_000) })
      .where(eq(postDrafts.id, tweet.linked_post_id));
    expect(ids(await search(u, { status: "scheduled" }))).toEqual([tweet.linked_post_id]);
    expect(ids(await search(u, { status: "published" }))).toEqual([article.id]);
    expect(ids(await search(u, { status: "active", types: ["series"] }))).toEqual([s.id]);

    expect((await call("update_draft", { type: "tweet", id: tweet.id, pillar: "Growth" }, { token: u.token })).status).toBe(200);
    expect(ids(await search(u, { pillar: "Growth" })).sort()).toEqual([idea.id, tweet.id].sort());
    expect(ids(await search(u, { pillar: "Growth", types: ["article", "series"] }))).toEqual([]);
    expectError(await call("search_content", { types: ["video"] }, { token: u.token }), 400, "invalid_request");
  });

  it("pages through results with limit and cursor, without duplicates or gaps", async () => {
    const u = await makeUser();
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await post(u, `release note ${i}`)).id);
    for (const query of [undefined, "release"]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      const sizes: number[] = [];
      do {
        const page = await search(u, { ...(query && { query }), limit: 3, ...(cursor && { cursor }) });
        sizes.push(page.results.length);
        seen.push(...ids(page));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(sizes).toEqual([3, 3, 1]);
      expect(new Set(seen).size).toBe(7);
      expect([...seen].sort()).toEqual([...made].sort());
    }
    expectError(await call("search_content", { limit: 51 }, { token: u.token }), 400, "invalid_request");
  });

  it("ranks the most recent matches of all types together by relevance, then older ones by recency, and pages across that line", async () => {
    const u = await makeUser();
    const d = await db();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    // RANKED recent matches, newest first: two strong ones (an idea and a post, so the ranking
    // spans types) among weak posts.
    const weak = { title: "A note", body: "A note that mentions kubernetes once." };
    const strong = { title: "Kubernetes lessons", body: "Kubernetes, kubernetes and more kubernetes: what kubernetes taught us." };
    const slots = Array.from({ length: RANKED }, (_, i) => i).filter((i) => i !== 20 && i !== 45);
    const recent = await d
      .insert(postDrafts)
      .values(slots.map((i) => ({ userId: u.id, ...weak, updatedAt: at(i) })))
      .returning({ id: postDrafts.id });
    const [idea] = await d
      .insert(ideas)
      .values({ userId: u.id, ...strong, updatedAt: at(20) })
      .returning();
    const [strongPost] = await d
      .insert(postDrafts)
      .values({ userId: u.id, ...strong, updatedAt: at(45) })
      .returning();
    // Older than every ranked match: a strong idea (the only idea besides the recent one, so a
    // window per type would have ranked it), then strong posts.
    const [oldIdea] = await d
      .insert(ideas)
      .values({ userId: u.id, ...strong, updatedAt: at(99) })
      .returning();
    const old = await d
      .insert(postDrafts)
      .values(Array.from({ length: 5 }, (_, i) => ({ userId: u.id, ...strong, updatedAt: at(100 + i) })))
      .returning({ id: postDrafts.id });
    await d.insert(postDrafts).values({ userId: u.id, title: "Unrelated", body: "nothing here", updatedAt: at(0) });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await search(u, { query: "kubernetes", limit: 20, ...(cursor && { cursor }) });
      seen.push(...ids(page));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    // The strong ones first, then the weak ones by recency (equal relevance among each), then
    // the old strong items by recency: beyond the ranked matches, relevance no longer reorders.
    expect(seen).toEqual([idea.id, strongPost.id, ...recent.map((r) => r.id), oldIdea.id, ...old.map((r) => r.id)]);
  });

  it("refuses a cursor that was tampered with or belongs to another search", async () => {
    const u = await makeUser();
    for (let i = 0; i < 3; i++) await post(u, `item ${i}`);
    const first = await search(u, { limit: 1 });
    const cursor = first.next_cursor!;
    const other = await call("search_content", { query: "item", limit: 1, cursor }, { token: u.token });
    expectError(other, 400, "invalid_request");
    expect(other.body.error.details[0].path).toBe("cursor");
    expectError(await call("search_content", { limit: 1, cursor: "not-a-cursor" }, { token: u.token }), 400, "invalid_request");
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString());
    for (const o of [-1, 1.5, "1", 1e20]) {
      const forged = Buffer.from(JSON.stringify({ ...decoded, o })).toString("base64url");
      expectError(await call("search_content", { limit: 1, cursor: forged }, { token: u.token }), 400, "invalid_request");
    }
  });

  it("keeps snippets to 200 characters", async () => {
    const u = await makeUser();
    await post(u, "word ".repeat(600), "Long one");
    const [r] = (await search(u, { query: "word" })).results;
    expect(r.snippet.length).toBeLessThanOrEqual(200);
    expect(r.snippet.length).toBeGreaterThan(150);
  });

  it("never shows another user's items", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const mine = await post(a, "quarterly planning notes");
    await post(b, "quarterly planning notes");
    await (await db()).insert(ideas).values({ userId: b.id, title: "quarterly planning idea" });
    expect(ids(await search(a, { query: "quarterly planning" }))).toEqual([mine.id]);
    expect(ids(await search(a, {}))).toEqual([mine.id]);
  });

  it("is backed by a GIN index on every searched table's search column", async () => {
    const result: unknown = await (await db()).execute(sql`select tablename, indexdef from pg_indexes where schemaname = current_schema()`);
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { tablename: string; indexdef: string }[];
    for (const table of ["post_drafts", "tweet_drafts", "articles", "ideas", "series"]) {
      const gin = rows.filter((r) => r.tablename === table && /USING gin \(search\)/i.test(r.indexdef));
      expect(gin, table).toHaveLength(1);
    }
  });
});
