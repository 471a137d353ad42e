import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { contentHashOf } from "@/lib/domain/drafts/content-hash";
import { deleteDraft, draftTable } from "@/lib/domain/drafts/drafts";
import { draftHistory, lastChangedBy } from "@/lib/domain/drafts/history";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { attention, ownerContext, resolveUnknown } from "@/lib/domain/owner/owner";
import { publishNow, scheduleContent } from "@/lib/domain/publishing/schedule";
import { searchContent } from "@/lib/domain/drafts/search";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { approved, draft, inSeconds, row, sandboxCount } from "../helpers/publishing";

// The owner acting in person in the owner's pages: the same domain functions as the API,
// confirmed by the page (no approval row, no switch for apps), and the drafts' history.
withDatabase();

const owner = async (u: TestUser) => ownerContext(await db(), { id: u.id, ...(await getProfile(await db(), u.id))! }, ports());
const setStatus = async (type: "post" | "tweet", id: string, status: "unknown" | "failed", reason = "the connection broke after sending") => {
  const t = draftTable(type);
  await (await db()).update(t).set({ status, failureReason: reason }).where(eq(t.id, id));
};

describe("the owner in person", () => {
  it("schedules, publishes and deletes without an approval link, even with the apps' switch off", async () => {
    const u = await makeUser({ publishing: false });
    const ctx = await owner(u);
    const a = await draft(u);
    await scheduleContent(ctx, { type: "post", id: a.id, scheduled_for: inSeconds(3600).toISOString() });
    expect((await row("post", a.id)).status).toBe("scheduled");
    const out = await publishNow(ctx, { type: "post", id: a.id });
    expect(out.url).toMatch(/\/sandbox\/pronet\//);
    expect(await sandboxCount(a.id)).toBe(1);
    const b = await draft(u);
    expect((await deleteDraft(ctx, { type: "post", id: b.id })).deleted).toBe(true);
    // The app with the same user is still refused: the flag never comes from a token.
    const c = await draft(u);
    expectError(await call("publish_now", { type: "post", id: c.id }, { token: u.token }), 403, "publishing_not_allowed");
  });

  it("acts only on the content the page showed: after an app's edit, publish, schedule and delete do nothing", async () => {
    // The owner opens the draft; an app changes it before the click. The page confirmed the
    // text it showed, not the app's.
    const u = await makeUser();
    const d = await draft(u, "post", "What the owner read");
    const shown = contentHashOf(await row("post", d.id));
    expect((await call("update_draft", { type: "post", id: d.id, body: "What the app slipped in" }, { token: u.token })).status).toBe(200);
    const ctx = { ...(await owner(u)), shown };
    await expect(publishNow(ctx, { type: "post", id: d.id })).rejects.toThrow(/changed after the page showed it/);
    await expect(scheduleContent(ctx, { type: "post", id: d.id, scheduled_for: inSeconds(3600).toISOString() })).rejects.toThrow(/changed after the page/);
    await expect(deleteDraft(ctx, { type: "post", id: d.id })).rejects.toThrow(/changed after the page/);
    // A form that names no content acts on none.
    await expect(publishNow({ ...ctx, shown: "" }, { type: "post", id: d.id })).rejects.toThrow(/changed after the page/);
    expect(await sandboxCount(d.id)).toBe(0);
    expect(await row("post", d.id)).toMatchObject({ status: "draft", body: "What the app slipped in" });
    // Once the page shows the new text, the owner can publish it.
    await publishNow({ ...ctx, shown: contentHashOf(await row("post", d.id)) }, { type: "post", id: d.id });
    expect(await sandboxCount(d.id)).toBe(1);
  });

  it("settles an unknown outcome both ways; only in person, only while unknown, only http(s) links", async () => {
    const u = await makeUser();
    const ctx = await owner(u);
    const went = await draft(u, "tweet", "went out");
    const not = await draft(u, "tweet", "did not");
    await setStatus("tweet", went.id, "unknown");
    await setStatus("tweet", not.id, "unknown");
    expect(await attention(await db(), u.id)).toMatchObject({ unknown: 2, total: 2 });
    await expect(resolveUnknown({ ...ctx, caller: { ...ctx.caller, inPerson: undefined } }, { type: "tweet", id: went.id, posted: false })).rejects.toThrow(
      /Only the account owner/,
    );
    await expect(resolveUnknown(ctx, { type: "tweet", id: went.id, posted: true, url: "javascript:alert(1)" })).rejects.toThrow();
    await resolveUnknown(ctx, { type: "tweet", id: went.id, posted: true, url: "https://x.com/me/status/42" });
    expect(await row("tweet", went.id)).toMatchObject({ status: "published", platformUrl: "https://x.com/me/status/42", platformPostId: "42" });
    await expect(resolveUnknown(ctx, { type: "tweet", id: went.id, posted: false })).rejects.toThrow(/is published, not waiting/);

    await resolveUnknown(ctx, { type: "tweet", id: not.id, posted: false });
    expect((await row("tweet", not.id)).status).toBe("failed");
    // A failed draft can go out again; publish_now refused it while it was unknown.
    await publishNow(ctx, { type: "tweet", id: not.id });
    expect((await row("tweet", not.id)).status).toBe("published");
    expect(await attention(await db(), u.id)).toMatchObject({ total: 0 });
  });
});

describe("a draft's history", () => {
  it("records which app created and changed it, the owner's actions, and each publish attempt", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "History matters");
    expect((await call("update_draft", { type: "post", id: d.id, body: "History matters, edited" }, { token: u.token })).status).toBe(200);
    const ctx = await owner(u);
    await publishNow(ctx, { type: "post", id: d.id });
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
