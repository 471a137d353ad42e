import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { draftTable } from "@/lib/domain/drafts/drafts";
import { draftHistory, lastChangedBy } from "@/lib/domain/drafts/history";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { attention, ownerContext } from "@/lib/domain/owner/owner";
import { runOperation } from "@/lib/operations/run";
import { settleUnknownOp } from "@/lib/operations/in-person/settle-unknown";
import { searchContent } from "@/lib/domain/drafts/search";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { approved, draft, inSeconds, row, sandboxCount } from "../helpers/publishing";
import { asOwner, ownerOf, shownOf } from "../helpers/owner";

// The owner acting in person in the owner's pages: the same operations through the same door as
// the API, confirmed by the page (no approval row, no switch for apps), and the drafts' history.
withDatabase();

const owner = async (u: TestUser) => ownerContext(await db(), { id: u.id, ...(await getProfile(await db(), u.id))! }, ports());
const setStatus = async (type: "post" | "tweet", id: string, status: "unknown" | "failed", reason = "the connection broke after sending") => {
  const t = draftTable(type);
  await (await db()).update(t).set({ status, failureReason: reason }).where(eq(t.id, id));
};

describe("the owner in person", () => {
  it("schedules, publishes and deletes without an approval link, even with the apps' switch off", async () => {
    const u = await makeUser({ publishing: false });
    const a = await draft(u);
    const at = inSeconds(3600).toISOString();
    expect((await asOwner(u, "schedule_content", { type: "post", id: a.id, scheduled_for: at }, { shown: await shownOf("post", a.id) })).status).toBe(200);
    expect((await row("post", a.id)).status).toBe("scheduled");
    const out = await asOwner(u, "publish_now", { type: "post", id: a.id }, { shown: await shownOf("post", a.id) });
    expect(out.body.url).toMatch(/\/sandbox\/pronet\//);
    expect(await sandboxCount(a.id)).toBe(1);
    const b = await draft(u);
    expect((await asOwner(u, "delete_draft", { type: "post", id: b.id }, { shown: await shownOf("post", b.id) })).body.deleted).toBe(true);
    // The app with the same user is still refused: the flag never comes from a token.
    const c = await draft(u);
    expectError(await call("publish_now", { type: "post", id: c.id }, { token: u.token }), 403, "publishing_not_allowed");
  });

  it("acts only on the content the page showed: after an app's edit, publish, schedule and delete do nothing", async () => {
    // The owner opens the draft; an app changes it before the click. The page confirmed the
    // text it showed, not the app's.
    const u = await makeUser();
    const d = await draft(u, "post", "What the owner read");
    const shown = await shownOf("post", d.id);
    expect((await call("update_draft", { type: "post", id: d.id, body: "What the app slipped in" }, { token: u.token })).status).toBe(200);
    const stale = { shown };
    expectError(await asOwner(u, "publish_now", { type: "post", id: d.id }, stale), 422, "action_failed");
    expect((await asOwner(u, "publish_now", { type: "post", id: d.id }, stale)).body.error.message).toMatch(/changed after the page showed it/);
    expectError(await asOwner(u, "schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(3600).toISOString() }, stale), 422, "action_failed");
    expectError(await asOwner(u, "delete_draft", { type: "post", id: d.id }, stale), 422, "action_failed");
    // A form that names no content acts on none.
    expectError(await asOwner(u, "publish_now", { type: "post", id: d.id }), 422, "action_failed");
    expectError(await asOwner(u, "publish_now", { type: "post", id: d.id }, { shown: "" }), 422, "action_failed");
    expect(await sandboxCount(d.id)).toBe(0);
    expect(await row("post", d.id)).toMatchObject({ status: "draft", body: "What the app slipped in" });
    // Once the page shows the new text, the owner can publish it.
    expect((await asOwner(u, "publish_now", { type: "post", id: d.id }, { shown: await shownOf("post", d.id) })).status).toBe(200);
    expect(await sandboxCount(d.id)).toBe(1);
  });

  it("settles an unknown outcome both ways; only in person, only while unknown, only http(s) links", async () => {
    const u = await makeUser();
    const went = await draft(u, "tweet", "went out");
    const not = await draft(u, "tweet", "did not");
    await setStatus("tweet", went.id, "unknown");
    await setStatus("tweet", not.id, "unknown");
    expect(await attention(await db(), u.id)).toMatchObject({ unknown: 2, total: 2 });
    // Not an operation of the API, and refused at the door to anyone but the owner in person.
    expectError(await call("settle_unknown", { type: "tweet", id: went.id, posted: false }, { token: u.token }), 404, "unknown_operation");
    const app = { ...(await ownerOf(u)), inPerson: undefined, appId: u.appId, appName: "Command line" };
    await expect(runOperation(app, settleUnknownOp, () => ({ type: "tweet", id: went.id, posted: false }), { requestId: "t" })).rejects.toThrow(
      /Only the account owner/,
    );
    expectError(await asOwner(u, "settle_unknown", { type: "tweet", id: went.id, posted: true, url: "javascript:alert(1)" }), 400, "invalid_request");
    expect((await asOwner(u, "settle_unknown", { type: "tweet", id: went.id, posted: true, url: "https://x.com/me/status/42" })).status).toBe(200);
    expect(await row("tweet", went.id)).toMatchObject({ status: "published", platformUrl: "https://x.com/me/status/42", platformPostId: "42" });
    const again = await asOwner(u, "settle_unknown", { type: "tweet", id: went.id, posted: false });
    expect(again.body.error.message).toMatch(/is published, not waiting/);

    expect((await asOwner(u, "settle_unknown", { type: "tweet", id: not.id, posted: false })).status).toBe(200);
    expect((await row("tweet", not.id)).status).toBe("failed");
    // A failed draft can go out again; publish_now refused it while it was unknown.
    expect((await asOwner(u, "publish_now", { type: "tweet", id: not.id }, { shown: await shownOf("tweet", not.id) })).status).toBe(200);
    expect((await row("tweet", not.id)).status).toBe("published");
    expect(await attention(await db(), u.id)).toMatchObject({ total: 0 });
  });
});

describe("a draft's history", () => {
  it("records which app created and changed it, the owner's actions, and each publish attempt", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "History matters");
    expect((await call("update_draft", { type: "post", id: d.id, body: "History matters, edited" }, { token: u.token })).status).toBe(200);
    expect((await asOwner(u, "publish_now", { type: "post", id: d.id }, { shown: await shownOf("post", d.id) })).status).toBe(200);
    const h = await draftHistory(await db(), u.id, "post", d.id);
    expect(h.map((e) => [e.kind, e.actor, e.appName])).toEqual([
      ["created", "app", "Command line"],
      ["edited", "app", "Command line"],
      ["published", "scheduler", null],
    ]);
    expect(h[2].detail.url).toMatch(/\/sandbox\/pronet\//);
    expect((await lastChangedBy(await db(), u.id, [d.id])).get(d.id)).toMatchObject({ actor: "app", appName: "Command line", kind: "edited" });
    // An app's request for approval shows too, with the app's name.
    const e = await draft(u);
    await call("delete_draft", { type: "post", id: e.id }, { token: u.token });
    expect((await draftHistory(await db(), u.id, "post", e.id)).map((x) => x.kind)).toEqual(["created", "approval_asked"]);
    // Another user sees none of it.
    const v = await makeUser();
    expect(await draftHistory(await db(), v.id, "post", d.id)).toEqual([]);
  });

  it("goes with a deleted post, its tweets' history included", async () => {
    const u = await makeUser({ publishing: true });
    const post = await draft(u, "post", "Parent post");
    const tweet = (await call("create_draft", { type: "tweet", body: "Its tweet", post_draft_id: post.id }, { token: u.token })).body;
    const keep = await draft(u, "tweet", "Another tweet");
    expect((await draftHistory(await db(), u.id, "tweet", tweet.id)).map((x) => x.kind)).toEqual(["created"]);
    expect((await approved(u, "delete_draft", { type: "post", id: post.id })).status).toBe(200);
    expect(await draftHistory(await db(), u.id, "tweet", tweet.id)).toEqual([]);
    expect((await draftHistory(await db(), u.id, "tweet", keep.id)).map((x) => x.kind)).toEqual(["created"]);
  });
});

describe("the content list's filters", () => {
  it("Needs attention: failed and unknown drafts, and drafts an app waits on approval for", async () => {
    const u = await makeUser({ publishing: true });
    const ctx = await owner(u);
    const [f, k, w] = [await draft(u), await draft(u, "tweet"), await draft(u)];
    await draft(u);
    await setStatus("post", f.id, "failed");
    await setStatus("tweet", k.id, "unknown");
    await call("publish_now", { type: "post", id: w.id }, { token: u.token }); // asks for approval
    const ids = (await attention(await db(), u.id)).waiting;
    expect(ids).toBe(1);
    const res = await searchContent(ctx, { types: ["post", "tweet"], statuses: ["failed", "unknown"], orIds: [w.id], limit: 20 });
    expect(res.results.map((r) => r.id).sort()).toEqual([f.id, k.id, w.id].sort());
    const none = await searchContent(ctx, { types: ["post", "tweet"], statuses: ["failed", "unknown"], orIds: [], limit: 20 });
    expect(none.results.map((r) => r.id).sort()).toEqual([f.id, k.id].sort());
  });
});
