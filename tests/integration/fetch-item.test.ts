import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { articles, ideas, postDrafts, series, seriesTopics } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

const MISSING = "00000000-0000-4000-8000-000000000000";
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const fetchOk = async (u: TestUser, type: string, id: string) => expectOk(await call("fetch_item", { type, id }, { token: u.token }), fetchItemOp.output);

// Articles, ideas and series are made by other features; here they are rows set up directly.
async function insertArticle(userId: string, values: Partial<typeof articles.$inferInsert> = {}) {
  const [row] = await (
    await db()
  )
    .insert(articles)
    .values({ userId, title: "An article", body: "Article text", ...values })
    .returning();
  return row;
}
async function insertIdea(userId: string, values: Partial<typeof ideas.$inferInsert> = {}) {
  const [row] = await (
    await db()
  )
    .insert(ideas)
    .values({ userId, title: "An idea", body: "Idea text", ...values })
    .returning();
  return row;
}
async function insertSeries(userId: string) {
  const d = await db();
  const [s] = await d.insert(series).values({ userId, title: "Platform lessons", description: "Weekly notes", microEnabled: true }).returning();
  // Inserted out of order: fetch_item must answer in order_index order.
  const topics = [
    { orderIndex: 2, title: "Third", status: "pending" as const },
    { orderIndex: 0, title: "First", status: "done" as const, pronetCompleted: true, microCompleted: true, pronetPostId: "pn-1", microPostId: "mc-1" },
    { orderIndex: 3, title: "Fourth", status: "in_progress" as const, pronetCompleted: true, pronetPostId: "pn-4" },
    { orderIndex: 1, title: "Second", status: "done" as const, description: "Has a description", pronetCompleted: true, microCompleted: true },
  ];
  await d.insert(seriesTopics).values(topics.map((t) => ({ seriesId: s.id, userId, ...t })));
  return s;
}

describe("fetch_item", () => {
  it("opens a post and a tweet with their links", async () => {
    const u = await makeUser();
    const tweet = expectOk(await call("create_draft", { type: "tweet", body: "Tweet text" }, { token: u.token }), createDraftOp.output);
    const idea = await insertIdea(u.id);
    await (await db()).update(postDrafts).set({ ideaId: idea.id }).where(eq(postDrafts.id, tweet.linked_post_id));

    const p = await fetchOk(u, "post", tweet.linked_post_id);
    expect(p).toMatchObject({
      id: tweet.linked_post_id,
      type: "post",
      title: "Tweet text",
      status: "draft",
      body: "Tweet text",
      body_truncated: false,
      platform: "pronet",
      scheduled_for: null,
    });
    expect(p.links).toEqual({ post_draft_id: null, personal_idea_id: idea.id, carousel_project_id: null });
    expect(p.created_at).toMatch(ISO);
    expect(p.updated_at).toMatch(ISO);

    const t = await fetchOk(u, "tweet", tweet.id);
    expect(t).toMatchObject({ type: "tweet", platform: "micro", body: "Tweet text" });
    expect(t.links).toEqual({ post_draft_id: tweet.linked_post_id, personal_idea_id: null, carousel_project_id: null });
    expect(t).not.toHaveProperty("untrusted_source");
  });

  // The interface's item keys (docs/interface.md): an added key appears only where it applies.
  it("a draft that names no account, on an instance with none connected, has only the interface's item keys", async () => {
    const ITEM_KEYS = ["id", "type", "title", "status", "body", "body_truncated", "created_at", "updated_at", "scheduled_for", "platform"];
    const OPTIONAL = ["image_url", "image_urls", "hashtags", "tags", "links", "series", "topics", "untrusted_source", "notes"];
    const u = await makeUser();
    const tweet = expectOk(await call("create_draft", { type: "tweet", body: "Tweet text" }, { token: u.token }), createDraftOp.output);
    for (const [type, id] of [
      ["post", tweet.linked_post_id],
      ["tweet", tweet.id],
    ]) {
      const keys = Object.keys(await fetchOk(u, type, id));
      expect(keys).toEqual(expect.arrayContaining(ITEM_KEYS));
      expect(
        keys.filter((k) => !ITEM_KEYS.includes(k) && !OPTIONAL.includes(k)),
        type,
      ).toEqual([]);
    }
  });

  it("opens an article and an idea, without draft-only keys", async () => {
    const u = await makeUser();
    const a = await insertArticle(u.id, { tags: ["cloud"], imageUrl: "http://localhost:3000/media/a.png", status: "published" });
    const i = await insertIdea(u.id, { body: null });
    const art = await fetchOk(u, "article", a.id);
    expect(art).toMatchObject({
      id: a.id,
      type: "article",
      title: "An article",
      status: "published",
      body: "Article text",
      tags: ["cloud"],
      image_url: "http://localhost:3000/media/a.png",
      platform: null,
      scheduled_for: null,
    });
    expect(art).not.toHaveProperty("links");
    const idea = await fetchOk(u, "idea", i.id);
    expect(idea).toMatchObject({ id: i.id, type: "idea", status: "new", body: null, body_truncated: false });
    expect(idea).not.toHaveProperty("links");
    expect(idea).not.toHaveProperty("series");
  });

  it("opens a series with its settings and topics in order", async () => {
    const u = await makeUser();
    const s = await insertSeries(u.id);
    const item = await fetchOk(u, "series", s.id);
    expect(item).toMatchObject({ id: s.id, type: "series", title: "Platform lessons", body: "Weekly notes", status: "active", platform: null });
    expect(item.series).toEqual({ pronet_enabled: true, micro_enabled: true, is_active: true, completed_at: null, total_topics: 4, completed_topics: 2 });
    expect(item.topics.map((t: { title: string }) => t.title)).toEqual(["First", "Second", "Third", "Fourth"]);
    expect(item.topics.map((t: { order_index: number }) => t.order_index)).toEqual([0, 1, 2, 3]);
    expect(item.topics[0]).toMatchObject({
      status: "done",
      pronet_completed: true,
      micro_completed: true,
      pronet_post_id: "pn-1",
      micro_post_id: "mc-1",
      description: null,
    });
    expect(item.topics[1].description).toBe("Has a description");
    expect(item.topics[3]).toMatchObject({
      status: "in_progress",
      pronet_completed: true,
      micro_completed: false,
      pronet_post_id: "pn-4",
      micro_post_id: null,
    });

    const done = new Date("2026-01-02T03:04:05.678Z");
    await (await db()).update(series).set({ completedAt: done, isActive: false }).where(eq(series.id, s.id));
    const completed = await fetchOk(u, "series", s.id);
    expect(completed.status).toBe("completed");
    expect(completed.series).toMatchObject({ is_active: false, completed_at: "2026-01-02T03:04:05.678Z" });
  });

  it("cuts a body over 6000 characters and says so", async () => {
    const u = await makeUser();
    const long = await insertArticle(u.id, { body: "abcdefghij".repeat(700) });
    const item = await fetchOk(u, "article", long.id);
    expect(item.body).toBe("abcdefghij".repeat(600));
    expect(item.body_truncated).toBe(true);
    expect(item.notes).toHaveLength(1);
    expect(item.notes[0]).toMatch(/6000/);
    const exact = await insertIdea(u.id, { body: "y".repeat(6000) });
    const whole = await fetchOk(u, "idea", exact.id);
    expect(whole.body).toHaveLength(6000);
    expect(whole.body_truncated).toBe(false);
    expect(whole).not.toHaveProperty("notes");
  });

  it("names an untrusted source only when the item has one", async () => {
    const u = await makeUser();
    const saved = await insertIdea(u.id, { untrustedSource: "https://example.com/blog/post" });
    const own = await insertIdea(u.id);
    expect((await fetchOk(u, "idea", saved.id)).untrusted_source).toBe("https://example.com/blog/post");
    expect(await fetchOk(u, "idea", own.id)).not.toHaveProperty("untrusted_source");
    const d = expectOk(await call("create_draft", { type: "post", body: "x" }, { token: u.token }), createDraftOp.output);
    await (await db()).update(postDrafts).set({ untrustedSource: "generated from https://example.com" }).where(eq(postDrafts.id, d.id));
    expect((await fetchOk(u, "post", d.id)).untrusted_source).toBe("generated from https://example.com");
  });

  it("answers a wrong type for an id exactly as a missing id", async () => {
    const u = await makeUser();
    const a = await insertArticle(u.id);
    for (const type of ["post", "tweet", "idea", "series"]) {
      const wrong = await call("fetch_item", { type, id: a.id }, { token: u.token });
      expectError(wrong, 422, "action_failed");
      expect(wrong.body).toEqual((await call("fetch_item", { type, id: MISSING }, { token: u.token })).body);
    }
  });

  it("refuses a malformed id or an unknown type", async () => {
    const u = await makeUser();
    const bad = await call("fetch_item", { type: "post", id: "not-a-uuid" }, { token: u.token });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.error.details[0].path).toBe("id");
    expectError(await call("fetch_item", { type: "video", id: MISSING }, { token: u.token }), 400, "invalid_request");
    expectError(await call("fetch_item", { type: "post", id: MISSING, title: "x" }, { token: u.token }), 400, "invalid_request");
  });

  it("answers for another user's item of every type exactly as for a missing one", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const tweet = expectOk(await call("create_draft", { type: "tweet", body: "mine" }, { token: a.token }), createDraftOp.output);
    const own: Record<string, string> = {
      post: tweet.linked_post_id,
      tweet: tweet.id,
      article: (await insertArticle(a.id)).id,
      idea: (await insertIdea(a.id)).id,
      series: (await insertSeries(a.id)).id,
    };
    for (const [type, id] of Object.entries(own)) {
      await fetchOk(a, type, id);
      const foreign = await call("fetch_item", { type, id }, { token: b.token });
      expectError(foreign, 422, "action_failed");
      expect(foreign.body).toEqual((await call("fetch_item", { type, id: MISSING }, { token: b.token })).body);
    }
  });
});
