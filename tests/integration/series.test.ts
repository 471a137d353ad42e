import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, type Db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerContext, resolveUnknown } from "@/lib/domain/owner/owner";
import { record } from "@/lib/domain/publishing/publish";
import { markTopicPublished } from "@/lib/domain/series/series";
import { postDrafts } from "@/drizzle/schema";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { listSeriesOp } from "@/lib/operations/series/list-series";
import { manageSeriesOp } from "@/lib/operations/series/manage-series";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

const manage = async (u: TestUser, body: Record<string, unknown>) => expectOk(await call("manage_series", body, { token: u.token }), manageSeriesOp.output);
const titles = (r: { topics: { title: string; order_index: number }[] }) => r.topics.map((t) => `${t.order_index}:${t.title}`);

describe("manage_series and list_series", () => {
  it("creates, updates, adds, edits, reorders and removes topics", async () => {
    const u = await makeUser();
    const created = await manage(u, { action: "create", title: "Hiring", topics: [{ title: "A" }, { title: "B", description: "bee" }] });
    expect(created.series).toMatchObject({
      title: "Hiring",
      pronet_enabled: true,
      micro_enabled: false,
      is_active: true,
      completed_at: null,
      total_topics: 2,
      completed_topics: 0,
    });
    expect(titles(created)).toEqual(["0:A", "1:B"]);
    const id = created.series.id;

    const updated = await manage(u, { action: "update", series_id: id, title: "Hiring well", micro_enabled: true });
    expect(updated.series).toMatchObject({ title: "Hiring well", micro_enabled: true });

    const added = await manage(u, { action: "add_topics", series_id: id, topics: [{ title: "Z" }], position: 0 });
    expect(titles(added)).toEqual(["0:Z", "1:A", "2:B"]);
    const end = await manage(u, { action: "add_topics", series_id: id, topics: [{ title: "C" }] });
    expect(titles(end)).toEqual(["0:Z", "1:A", "2:B", "3:C"]);

    const [z, a, b, c] = end.topics.map((t: { id: string }) => t.id);
    const edited = await manage(u, { action: "update_topic", series_id: id, topic_id: a, title: "A2", status: "skipped" });
    expect(edited.topics[1]).toMatchObject({ title: "A2", status: "skipped" });
    expect(edited.series.completed_topics).toBe(1);

    const reordered = await manage(u, { action: "reorder_topics", series_id: id, topic_ids: [c, b, a, z] });
    expect(titles(reordered)).toEqual(["0:C", "1:B", "2:A2", "3:Z"]);

    const removed = await manage(u, { action: "remove_topic", series_id: id, topic_id: b });
    expect(titles(removed)).toEqual(["0:C", "1:A2", "2:Z"]);

    // fetch_item shows the same series and topics.
    const item = expectOk(await call("fetch_item", { type: "series", id }, { token: u.token }), fetchItemOp.output);
    expect(item.series).toEqual({ pronet_enabled: true, micro_enabled: true, is_active: true, completed_at: null, total_topics: 3, completed_topics: 1 });
    expect(item.topics).toEqual(removed.topics);

    const list = expectOk(await call("list_series", {}, { token: u.token }), listSeriesOp.output);
    expect(list.series).toHaveLength(1);
    expect(list.series[0]).toMatchObject({ id, total_topics: 3, completed_topics: 1, next_topic: { id: c, title: "C", order_index: 0 } });
  });

  it("accepts only a permutation of all topics for reorder", async () => {
    const u = await makeUser();
    const s = await manage(u, { action: "create", title: "S", topics: [{ title: "1" }, { title: "2" }, { title: "3" }] });
    const [t1, t2, t3] = s.topics.map((t: { id: string }) => t.id);
    const r = (ids: string[]) => call("manage_series", { action: "reorder_topics", series_id: s.series.id, topic_ids: ids }, { token: u.token });
    expectError(await r([t1, t2]), 422, "action_failed"); // missing one
    expectError(await r([t1, t2, t3, randomUUID()]), 422, "action_failed"); // extra
    expectError(await r([t1, t2, randomUUID()]), 422, "action_failed"); // foreign
    expectError(await r([t1, t1, t2]), 400, "invalid_request"); // repeat
    const again = await call("fetch_item", { type: "series", id: s.series.id }, { token: u.token });
    expect(titles(again.body)).toEqual(["0:1", "1:2", "2:3"]);
  });

  it("validates actions and refuses a series with no network", async () => {
    const u = await makeUser();
    expectError(await call("manage_series", { action: "explode" }, { token: u.token }), 400, "invalid_request");
    expectError(await call("manage_series", { action: "create" }, { token: u.token }), 400, "invalid_request");
    expectError(await call("manage_series", { action: "create", title: "x", pronet_enabled: false }, { token: u.token }), 422, "action_failed");
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ title: `t${i}` }));
    expectError(await call("manage_series", { action: "create", title: "x", topics: tooMany }, { token: u.token }), 400, "invalid_request");
  });

  it("keeps other users' series invisible, answering like a missing one", async () => {
    const owner = await makeUser();
    const other = await makeUser();
    const s = await manage(owner, { action: "create", title: "Mine", topics: [{ title: "T" }] });
    const sid = s.series.id;
    const tid = s.topics[0].id;
    const missing = await call("manage_series", { action: "update", series_id: randomUUID(), title: "x" }, { token: other.token });
    expectError(missing, 422, "action_failed");
    for (const body of [
      { action: "update", series_id: sid, title: "stolen" },
      { action: "add_topics", series_id: sid, topics: [{ title: "x" }] },
      { action: "update_topic", series_id: sid, topic_id: tid, status: "done" },
      { action: "reorder_topics", series_id: sid, topic_ids: [tid] },
      { action: "remove_topic", series_id: sid, topic_id: tid },
    ]) {
      const res = await call("manage_series", body, { token: other.token });
      expectError(res, 422, "action_failed");
      expect(res.body.error.message).toBe(missing.body.error.message);
    }
    expectError(await call("create_draft", { type: "post", body: "x", series_topic_id: tid }, { token: other.token }), 422, "action_failed");
    expect((await call("list_series", {}, { token: other.token })).body.series).toEqual([]);
    expectError(await call("fetch_item", { type: "series", id: sid }, { token: other.token }), 422, "action_failed");
    const mine = await call("fetch_item", { type: "series", id: sid }, { token: owner.token });
    expect(mine.body).toMatchObject({ title: "Mine", topics: [{ title: "T", status: "pending" }] });
  });

  it("follows drafts to completion", async () => {
    const u = await makeUser();
    const s = await manage(u, { action: "create", title: "Two networks", micro_enabled: true, topics: [{ title: "One" }, { title: "Two" }] });
    const [one, two] = s.topics.map((t: { id: string }) => t.id);
    expectOk(await call("create_draft", { type: "post", body: "Part one", series_topic_id: one }, { token: u.token }), createDraftOp.output);
    let item = (await call("fetch_item", { type: "series", id: s.series.id }, { token: u.token })).body;
    expect(item.topics[0].status).toBe("in_progress");

    const d = await db();
    await d.transaction((tx) => markTopicPublished(tx, one, "pronet", "urn:li:1"));
    item = (await call("fetch_item", { type: "series", id: s.series.id }, { token: u.token })).body;
    expect(item.topics[0]).toMatchObject({ status: "in_progress", pronet_completed: true, pronet_post_id: "urn:li:1", micro_completed: false });
    await d.transaction((tx) => markTopicPublished(tx, one, "micro", "99"));
    item = (await call("fetch_item", { type: "series", id: s.series.id }, { token: u.token })).body;
    expect(item.topics[0]).toMatchObject({ status: "done", micro_post_id: "99" });
    expect(item.series).toMatchObject({ completed_topics: 1, completed_at: null });
    expect(item.status).toBe("active");

    await manage(u, { action: "update_topic", series_id: s.series.id, topic_id: two, status: "skipped" });
    item = (await call("fetch_item", { type: "series", id: s.series.id }, { token: u.token })).body;
    expect(item.series.completed_at).toEqual(expect.stringMatching(/Z$/));
    expect(item.status).toBe("completed");
    const list = expectOk(await call("list_series", {}, { token: u.token }), listSeriesOp.output);
    expect(list.series[0]).toMatchObject({ completed_topics: 2, next_topic: null });

    // Reopening a topic clears completion.
    const reopened = await manage(u, { action: "update_topic", series_id: s.series.id, topic_id: two, status: "pending" });
    expect(reopened.series.completed_at).toBeNull();
  });

  it("lists inactive series only when asked, and pages", async () => {
    const u = await makeUser();
    for (const t of ["s1", "s2", "s3"]) await manage(u, { action: "create", title: t });
    const paused = await manage(u, { action: "create", title: "paused" });
    await manage(u, { action: "update", series_id: paused.series.id, is_active: false });
    const active = expectOk(await call("list_series", { limit: 2 }, { token: u.token }), listSeriesOp.output);
    expect(active.series.map((s: { title: string }) => s.title)).toEqual(["s3", "s2"]);
    const rest = expectOk(await call("list_series", { limit: 2, cursor: active.next_cursor }, { token: u.token }), listSeriesOp.output);
    expect(rest.series.map((s: { title: string }) => s.title)).toEqual(["s1"]);
    expect(rest.next_cursor).toBeNull();
    const all = expectOk(await call("list_series", { include_inactive: true }, { token: u.token }), listSeriesOp.output);
    expect(all.series.map((s: { title: string }) => s.title)).toEqual(["paused", "s3", "s2", "s1"]);
    expectError(await call("list_series", { cursor: "bogus" }, { token: u.token }), 400, "invalid_request");
  });
});

// Two connections are needed to hold one lock while the other waits: PostgreSQL only.
/**
 * An edit as manage_series makes it: the series locked first; `then` runs in its transaction
 * once `write` has started and reached its locks. A deadlock would fail one of them (40P01).
 */
async function whileSeriesEdited(seriesId: string, then: (tx: Db) => Promise<unknown>, write: () => Promise<unknown>) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const seriesLocked = new Promise<void>((r) => (locked = r));
  const edit = (await db()).transaction(async (tx) => {
    await tx.execute(sql`select id from series where id = ${seriesId} for update`);
    locked();
    await held;
    await then(tx);
  });
  await seriesLocked;
  const written = write();
  await new Promise((r) => setTimeout(r, 300));
  release();
  await Promise.all([edit, written]);
}

describe.skipIf(!process.env.DATABASE_URL)("a series edited while one of its topics is written for", () => {
  it("neither deadlocks: a publish recorded or a draft started for a topic waits for the series' edit, then goes through", async () => {
    const u = await makeUser();
    const created = await manage(u, { action: "create", title: "Locks", topics: [{ title: "A" }, { title: "B" }] });
    const [a, b] = created.topics.map((t: { id: string }) => t.id);
    const d = await db();
    for (const write of [
      () => d.transaction((tx) => markTopicPublished(tx, a, "pronet", "urn:li:share:7")),
      async () => expectOk(await call("create_draft", { type: "post", body: "For B", series_topic_id: b }, { token: u.token }), createDraftOp.output),
    ]) {
      // Then its topics, one by one.
      await whileSeriesEdited(
        created.series.id,
        async (tx) => {
          for (const id of [a, b]) await tx.execute(sql`update series_topics set updated_at = now() where id = ${id}`);
        },
        write,
      );
    }
    const after = await manage(u, { action: "update", series_id: created.series.id });
    expect(after.topics.map((t: { status: string }) => t.status)).toEqual(["done", "in_progress"]);
  });
  it("recording a publish, or the owner settling an unconfirmed one, while a topic is removed: neither deadlocks", async () => {
    const u = await makeUser();
    const d = await db();
    for (const settle of [false, true]) {
      const created = await manage(u, { action: "create", title: "Removal", topics: [{ title: "Gone" }] });
      const topic = created.topics[0].id as string;
      const draft = expectOk(
        await call("create_draft", { type: "post", body: "For the removed topic", series_topic_id: topic }, { token: u.token }),
        createDraftOp.output,
      );
      await d
        .update(postDrafts)
        .set({ status: settle ? "unknown" : "publishing" })
        .where(eq(postDrafts.id, draft.id));
      const [row] = await d.select().from(postDrafts).where(eq(postDrafts.id, draft.id));
      const owner = await ownerContext(d, { id: u.id, ...(await getProfile(d, u.id))! }, ports());
      // remove_topic: the topic's delete sets the draft's series_topic_id to null, a write to its row.
      await whileSeriesEdited(
        created.series.id,
        (tx) => tx.execute(sql`delete from series_topics where id = ${topic}`),
        () =>
          settle
            ? resolveUnknown(owner, { type: "post", id: draft.id, posted: true, url: "https://www.linkedin.com/feed/update/urn:li:share:9" })
            : d.transaction((tx) =>
                record(tx, { ...row, type: "post" }, { status: "published", platform: "pronet", postId: "urn:li:share:9", url: null }, new Date()),
              ),
      );
      const [after] = await d.select().from(postDrafts).where(eq(postDrafts.id, draft.id));
      expect(after).toMatchObject({ status: "published", seriesTopicId: null });
    }
  });
});
