import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { postDrafts, tweetDrafts } from "@/drizzle/schema";
import { operations, ownerOperations } from "@/lib/operations/registry";
import { csrfToken } from "@/lib/transports/auth/csrf";
import { formCaller } from "@/lib/transports/owner/door";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { asOwner, shownOf } from "../helpers/owner";
import { row, sandboxCount } from "../helpers/publishing";
import { bodiesOf, fixtureOf, inputFields, isIdField, type Fixture } from "../helpers/security-table";

// The owner's pages as a surface over the one door: the per-operation security table that REST
// and MCP pass (security.test.ts) run against the owner's forms (another owner's ids, a
// missing or forged CSRF token, a stale content hash, a repeated submission).

withDatabase();

/** What acts on content the page must have shown: the owner confirms only that. */
const confirming = [...operations, ...ownerOperations].filter(
  (op) => op.confirmation || op.confirmationWhen || ["save_draft", "schedule_on_day", "move_in_queue"].includes(op.name),
);
/** Everything the owner's pages can do that has a case below: the API's operations and their own. */
const reachable = [...operations, ...ownerOperations].filter((op) => !op.hints.readOnly || inputFields(op).some(isIdField));

async function drafts(u: TestUser) {
  const d = await db();
  const [p, t] = await Promise.all([
    d.select().from(postDrafts).where(eq(postDrafts.userId, u.id)),
    d.select().from(tweetDrafts).where(eq(tweetDrafts.userId, u.id)),
  ]);
  return [...p, ...t]
    .map((r) => ({ id: r.id, status: r.status, body: r.body, scheduledFor: r.scheduledFor?.toISOString() ?? null }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The draft an operation's body acts on (save_draft's is inside it). */
const target = (body: Record<string, unknown>) => (body.draft ?? body) as { type: "post" | "tweet"; id: string };

describe.each(reachable.map((op) => [op.name, op] as const))("the owner's %s", (name, op) => {
  let owner: TestUser;
  let fx: Fixture;
  beforeAll(async () => {
    owner = await makeUser();
    fx = await fixtureOf(owner);
  });

  const idFields = inputFields(op).filter(isIdField);
  if (idFields.length)
    it(`answers another owner's ${idFields.join(" / ")} exactly like a missing one, and changes nothing of theirs`, async () => {
      const before = await drafts(owner);
      const stranger = await makeUser();
      const own = bodiesOf(name, await fixtureOf(stranger));
      for (const [i, b] of own.entries()) {
        for (const k of idFields.filter((f) => f in b)) {
          const foreign = await asOwner(stranger, op, { ...b, [k]: bodiesOf(name, fx)[i][k] });
          const missing = await asOwner(stranger, op, { ...b, [k]: randomUUID() });
          expect({ field: k, status: foreign.status, body: foreign.body }).toEqual({ field: k, status: missing.status, body: missing.body });
        }
      }
      expect(await drafts(owner)).toEqual(before);
    });

  if (confirming.includes(op))
    it("acts only on the content the page showed: a stale or missing hash changes nothing", async () => {
      const u = await makeUser();
      const [body] = bodiesOf(name, await fixtureOf(u));
      const { type, id } = target(body);
      const shown = await shownOf(type, id);
      expect((await call("update_draft", { type, id, body: "An app's change" }, { token: u.token })).status).toBe(200);
      const before = await drafts(u);
      for (const stale of [{ shown }, {}]) expectError(await asOwner(u, op, body, stale), 422, "action_failed");
      expect(await drafts(u)).toEqual(before);
      expect(await sandboxCount(id)).toBe(0);
    });

  if (!op.hints.readOnly)
    it("answers a repeated submission with the form's key as it answered the first", async () => {
      const u = await makeUser({ publishing: true });
      const [body] = bodiesOf(name, await fixtureOf(u));
      const t = target(body);
      const o = { key: randomUUID(), ...(t.type && t.id && { shown: await shownOf(t.type, t.id) }) };
      const first = await asOwner(u, op, body, o);
      const after = await drafts(u);
      expect(await asOwner(u, op, body, o)).toEqual(first);
      expect(await drafts(u)).toEqual(after);
    });
});

describe("the owner's forms", () => {
  it("are refused without this owner's CSRF token for this form: missing, another user's, another form's, an hour old", async () => {
    const u = await makeUser();
    const v = await makeUser();
    const form = (csrf?: string) => {
      const f = new FormData();
      if (csrf !== undefined) f.set("csrf", csrf);
      return f;
    };
    expect(await formCaller(u.id, form(), "write")).toBeNull();
    expect(await formCaller(u.id, form(csrfToken(v.id, "write")), "write")).toBeNull();
    expect(await formCaller(u.id, form(csrfToken(u.id, "calendar")), "write")).toBeNull();
    expect(await formCaller(u.id, form(csrfToken(u.id, "write", Date.now() - 3601_000)), "write")).toBeNull();
    expect(await formCaller(u.id, form("garbage"), "write")).toBeNull();
    expect(await formCaller(u.id, form(csrfToken(u.id, "write")), "write")).toMatchObject({ userId: u.id, inPerson: true });
  });

  it("answer a second submission with the same key as the first, and do it once (a double press)", async () => {
    const u = await makeUser();
    const key = randomUUID();
    const input = { drafts: [{ type: "post", body: "Pressed twice" }], then: "publish" };
    // Two presses a few milliseconds apart: the second arrives while the first is publishing.
    const [a, b] = await Promise.all([asOwner(u, "compose", input, { key }), asOwner(u, "compose", input, { key })]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b).toEqual(a);
    // And once more after it finished.
    expect(await asOwner(u, "compose", input, { key })).toEqual(a);
    const made = await drafts(u);
    expect(made).toHaveLength(1);
    expect(await sandboxCount(made[0].id)).toBe(1);
    // Another press of the page (a new key) is a new action.
    expect((await asOwner(u, "compose", input, { key: randomUUID() })).status).toBe(200);
    expect(await drafts(u)).toHaveLength(2);
  });

  it("publish, schedule and delete once per key on the item page too", async () => {
    const u = await makeUser();
    const made = await asOwner(u, "compose", { drafts: [{ type: "post", body: "From the item page" }], then: "save" });
    const id = made.body.saved[0].id;
    const shown = await shownOf("post", id);
    const key = randomUUID();
    const publish = { draft: { type: "post", id, body: "From the item page" }, then: "publish" };
    const [a, b] = await Promise.all([asOwner(u, "save_draft", publish, { key, shown }), asOwner(u, "save_draft", publish, { key, shown })]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b).toEqual(a);
    expect(a.body.done).toBe("published");
    expect(await sandboxCount(id)).toBe(1);
    // publish_now without the key is refused as the API refuses it: a published draft never goes out twice.
    expect((await asOwner(u, "publish_now", { type: "post", id }, { shown: await shownOf("post", id) })).body.error.message).toMatch(/already published/);
    expect(await sandboxCount(id)).toBe(1);
  });

  it("a key used for one request does not stand for another", async () => {
    const u = await makeUser();
    const key = randomUUID();
    expect((await asOwner(u, "compose", { drafts: [{ type: "post", body: "First" }], then: "save" }, { key })).status).toBe(200);
    const other = await asOwner(u, "compose", { drafts: [{ type: "post", body: "Second" }], then: "save" }, { key });
    expectError(other, 422, "action_failed");
    expect((await drafts(u)).map((d) => d.body)).toEqual(["First"]);
  });
});

describe("pages that show titles only (calendar, queue)", () => {
  /** An app's post, approved and scheduled, then missed (failed), then changed by the app: the calendar's replay. */
  async function changedAfterApproval() {
    const u = await makeUser({ publishing: true });
    const f = await fixtureOf(u);
    const at = new Date(Date.now() + 3 * 3600_000).toISOString();
    const asked = await call("schedule_content", { type: "post", id: f.post, scheduled_for: at }, { token: u.token });
    expectError(asked, 403, "confirmation_required");
    expect((await asOwner(u, "decide_approval", { id: asked.body.error.confirmation.id, decision: "approved" })).body.decided).toBe(true);
    expect((await call("schedule_content", { type: "post", id: f.post, scheduled_for: at }, { token: u.token })).status).toBe(200);
    const approved = (await row("post", f.post)).approvedContentHash!;
    expect(approved).toBe(await shownOf("post", f.post));
    // Missed (the server was down past the lateness limit): failed, and the app may edit it freely.
    await (await db()).update(postDrafts).set({ status: "failed", failureReason: "missed" }).where(eq(postDrafts.id, f.post));
    expect((await call("update_draft", { type: "post", id: f.post, body: "Text the owner never saw" }, { token: u.token })).status).toBe(200);
    return { u, f, approved };
  }

  it("a calendar drop schedules nothing the owner was not shown", async () => {
    const { u, f, approved } = await changedAfterApproval();
    const day = new Date(Date.now() + 2 * 86400_000).toISOString().slice(0, 10);
    for (const o of [{ shown: approved }, {}, { shown: await shownOf("post", f.post) }]) {
      const res = await asOwner(u, "schedule_on_day", { type: "post", id: f.post, day }, o);
      expectError(res, 422, "action_failed");
    }
    expect(await row("post", f.post)).toMatchObject({ status: "failed", body: "Text the owner never saw" });
    // Once the owner has read it on its page and scheduled it there, the calendar moves it.
    const at = new Date(Date.now() + 3 * 3600_000).toISOString();
    const onPage = { draft: { type: "post", id: f.post, body: "Text the owner never saw" }, then: "schedule", scheduled_for: at };
    expect((await asOwner(u, "save_draft", onPage, { shown: await shownOf("post", f.post) })).body.done).toBe("scheduled");
    const res = await asOwner(u, "schedule_on_day", { type: "post", id: f.post, day }, { shown: await shownOf("post", f.post) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await row("post", f.post)).status).toBe("scheduled");
  });

  it("the queue's move does the same", async () => {
    const { u, f, approved } = await changedAfterApproval();
    await (await db()).update(postDrafts).set({ status: "scheduled" }).where(eq(postDrafts.id, f.post));
    const to = new Date(Date.now() + 5 * 3600_000).toISOString();
    for (const o of [{ shown: approved }, {}, { shown: await shownOf("post", f.post) }])
      expectError(await asOwner(u, "move_in_queue", { type: "post", id: f.post, to }, o), 422, "action_failed");
    expect(await row("post", f.post)).toMatchObject({ body: "Text the owner never saw" });
    expect((await row("post", f.post)).scheduledFor?.toISOString()).not.toBe(to);
  });

  it("what the owner wrote in person moves from the calendar", async () => {
    const u = await makeUser();
    const made = await asOwner(u, "compose", { drafts: [{ type: "tweet", body: "Mine" }], then: "save" });
    const id = made.body.saved[0].id;
    const day = new Date(Date.now() + 2 * 86400_000).toISOString().slice(0, 10);
    const res = await asOwner(u, "schedule_on_day", { type: "tweet", id, day }, { shown: await shownOf("tweet", id) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // An app's draft the owner never opened does not.
    const theirs = (await call("create_draft", { type: "tweet", body: "The app's" }, { token: u.token })).body.id;
    expectError(await asOwner(u, "schedule_on_day", { type: "tweet", id: theirs, day }, { shown: await shownOf("tweet", theirs) }), 422, "action_failed");
  });
});
