import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { searchContentOp } from "@/lib/operations/drafts/search-content";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { postDrafts, users, type DraftStatus } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { uploadPng } from "../helpers/media";

withDatabase();

const MISSING = "00000000-0000-4000-8000-000000000000";

async function create(u: TestUser, body: Record<string, unknown>) {
  return expectOk(await call("create_draft", body, { token: u.token }), createDraftOp.output);
}
const fetchPost = async (u: TestUser, id: string) => expectOk(await call("fetch_item", { type: "post", id }, { token: u.token }), fetchItemOp.output);

// Scheduling and publishing belong to other operations; here the states are set directly.
async function setState(id: string, status: DraftStatus, scheduledFor: Date | null = null) {
  await (await db()).update(postDrafts).set({ status, scheduledFor }).where(eq(postDrafts.id, id));
}

describe("update_draft", () => {
  it("edits title, body, image, hashtags and pillar and answers the documented summary only", async () => {
    const u = await makeUser();
    const d = await create(u, { type: "post", body: "Old text", title: "Old title", image_url: (await uploadPng(u)).url });
    const res = await call(
      "update_draft",
      { type: "post", id: d.id, title: "New title", body: "New  text\nsecond line", image_url: null, hashtags: ["#ai", "dev_ops"], pillar: "Engineering" },
      { token: u.token },
    );
    const out = expectOk(res, updateDraftOp.output);
    expect(Object.keys(out).sort()).toEqual(["id", "preview", "scheduled_for", "status", "title", "type", "updated_at"]);
    expect(out).toMatchObject({ id: d.id, type: "post", title: "New title", preview: "New text second line", status: "draft", scheduled_for: null });
    expect(out.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const item = await fetchPost(u, d.id);
    expect(item).toMatchObject({ title: "New title", body: "New  text\nsecond line", hashtags: ["ai", "dev_ops"], updated_at: out.updated_at });
    expect(item).not.toHaveProperty("image_url"); // null removed it
    const byPillar = expectOk(await call("search_content", { pillar: "Engineering" }, { token: u.token }), searchContentOp.output);
    expect(byPillar.results.map((r: { id: string }) => r.id)).toEqual([d.id]);
  });

  it("leaves out fields as they were", async () => {
    const u = await makeUser();
    const img = (await uploadPng(u)).url;
    const d = await create(u, { type: "post", body: "Body stays", title: "Title", image_url: img });
    expectOk(await call("update_draft", { type: "post", id: d.id, hashtags: ["x"] }, { token: u.token }), updateDraftOp.output);
    expect(await fetchPost(u, d.id)).toMatchObject({ title: "Title", body: "Body stays", image_url: img, image_urls: [img], hashtags: ["x"] });
  });

  it("re-derives a tweet's title from its new text", async () => {
    const u = await makeUser();
    const t = await create(u, { type: "tweet", body: "First tweet" });
    const out = expectOk(await call("update_draft", { type: "tweet", id: t.id, body: "\nRewritten opener\nmore" }, { token: u.token }), updateDraftOp.output);
    expect(out).toMatchObject({ type: "tweet", title: "Rewritten opener" });
    const item = expectOk(await call("fetch_item", { type: "tweet", id: t.id }, { token: u.token }), fetchItemOp.output);
    expect(item.title).toBe("Rewritten opener");
  });

  it("needs at least one editable field and refuses unknown ones", async () => {
    const u = await makeUser();
    const d = await create(u, { type: "post", body: "x" });
    expectError(await call("update_draft", { type: "post", id: d.id }, { token: u.token }), 400, "invalid_request");
    // if_updated_at is a guard, not an edit.
    const onlyGuard = await call("update_draft", { type: "post", id: d.id, if_updated_at: new Date().toISOString() }, { token: u.token });
    expectError(onlyGuard, 400, "invalid_request");
    const unknown = await call("update_draft", { type: "post", id: d.id, body: "y", status: "published", user_id: MISSING }, { token: u.token });
    expectError(unknown, 400, "invalid_request");
    expect(unknown.body.error.details.map((x: { path: string }) => x.path).sort()).toEqual(["status", "user_id"]);
    expect((await fetchPost(u, d.id)).body).toBe("x");
  });

  it("limits a tweet by X's weighted length and refuses a title on it", async () => {
    const u = await makeUser();
    const t = await create(u, { type: "tweet", body: "short" });
    expectOk(await call("update_draft", { type: "tweet", id: t.id, body: "字".repeat(140) }, { token: u.token }), updateDraftOp.output);
    const over = await call("update_draft", { type: "tweet", id: t.id, body: "字".repeat(141) }, { token: u.token });
    expectError(over, 400, "invalid_request");
    expect(over.body.error.details[0].path).toBe("body");
    const titled = await call("update_draft", { type: "tweet", id: t.id, title: "A title" }, { token: u.token });
    expectError(titled, 400, "invalid_request");
    expect(titled.body.error.details[0].path).toBe("title");
    // A post's limit is characters, so 141 wide characters are fine there.
    const p = await create(u, { type: "post", body: "p" });
    expectOk(await call("update_draft", { type: "post", id: p.id, body: "字".repeat(141) }, { token: u.token }), updateDraftOp.output);
  });

  it("refuses an edit when the draft changed since if_updated_at", async () => {
    const u = await makeUser();
    const d = await create(u, { type: "post", body: "v1" });
    const v1 = (await fetchPost(u, d.id)).updated_at;
    const v2 = expectOk(await call("update_draft", { type: "post", id: d.id, body: "v2", if_updated_at: v1 }, { token: u.token }), updateDraftOp.output);
    expect(v2.updated_at > v1).toBe(true);
    const stale = await call("update_draft", { type: "post", id: d.id, body: "v3", if_updated_at: v1 }, { token: u.token });
    expectError(stale, 422, "action_failed");
    expect((await fetchPost(u, d.id)).body).toBe("v2");
    // The same instant written with another offset is still fresh.
    const shifted = new Date(v2.updated_at).getTime() + 2 * 3600_000;
    const plus2 = new Date(shifted).toISOString().replace("Z", "+02:00");
    expectOk(await call("update_draft", { type: "post", id: d.id, body: "v3", if_updated_at: plus2 }, { token: u.token }), updateDraftOp.output);
    const noOffset = await call("update_draft", { type: "post", id: d.id, body: "v4", if_updated_at: "2026-01-01T10:00:00" }, { token: u.token });
    expectError(noOffset, 400, "invalid_request");
    expect(noOffset.body.error.details[0].path).toBe("if_updated_at");
  });

  it.each(["published", "publishing"] as const)("refuses to edit a %s draft", async (status) => {
    const u = await makeUser({ publishing: true });
    const d = await create(u, { type: "post", body: "live" });
    await setState(d.id, status);
    expectError(await call("update_draft", { type: "post", id: d.id, body: "changed" }, { token: u.token }), 422, "action_failed");
    expect((await fetchPost(u, d.id)).body).toBe("live");
  });

  it("edits a scheduled draft only while the owner's publishing switch is on and with the owner's approval of the edit, keeping its schedule", async () => {
    const u = await makeUser({ publishing: false });
    const d = await create(u, { type: "post", body: "planned" });
    const when = new Date(Date.now() + 86_400_000);
    await setState(d.id, "scheduled", when);
    const off = await call("update_draft", { type: "post", id: d.id, body: "changed" }, { token: u.token });
    expectError(off, 403, "publishing_not_allowed");
    expect((await fetchPost(u, d.id)).body).toBe("planned");

    await (await db()).update(users).set({ publishingAllowed: true }).where(eq(users.id, u.id));
    // The new text would go out unapproved: the edit itself needs the owner's approval.
    const asked = await call("update_draft", { type: "post", id: d.id, body: "changed" }, { token: u.token });
    expectError(asked, 403, "confirmation_required");
    expect(await fetchPost(u, d.id)).toMatchObject({ body: "planned", status: "scheduled", scheduled_for: when.toISOString() });

    expect(await decideApproval(await db(), u.id, asked.body.error.confirmation.id, "approved")).toBe(true);
    const on = expectOk(await call("update_draft", { type: "post", id: d.id, body: "changed" }, { token: u.token }), updateDraftOp.output);
    expect(on).toMatchObject({ status: "scheduled", scheduled_for: when.toISOString() });
    expect(await fetchPost(u, d.id)).toMatchObject({ body: "changed", status: "scheduled", scheduled_for: when.toISOString() });
  });

  it("answers for another user's draft exactly as for a missing one, and changes nothing", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const d = await create(a, { type: "post", body: "A's words" });
    const foreign = await call("update_draft", { type: "post", id: d.id, body: "B was here" }, { token: b.token });
    const missing = await call("update_draft", { type: "post", id: MISSING, body: "B was here" }, { token: b.token });
    expectError(foreign, 422, "action_failed");
    expect(foreign.body).toEqual(missing.body);
    // A post id sent as a tweet is not found either.
    expectError(await call("update_draft", { type: "tweet", id: d.id, body: "x" }, { token: a.token }), 422, "action_failed");
    expect((await fetchPost(a, d.id)).body).toBe("A's words");
  });
});
