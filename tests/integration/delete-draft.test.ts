import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { approvalForOwner } from "@/lib/domain/accounts/connections";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { deleteDraftOp } from "@/lib/operations/drafts/delete-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { approvals, postDrafts, tweetDrafts, type DraftStatus } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

const MISSING = "00000000-0000-4000-8000-000000000000";

async function post(u: TestUser, body = "To be deleted") {
  return expectOk(await call("create_draft", { type: "post", body }, { token: u.token }), createDraftOp.output);
}
const del = (u: TestUser, args: Record<string, unknown>) => call("delete_draft", args, { token: u.token });

/** Calls without approval and returns the pending approval the answer names. */
async function askApproval(u: TestUser, args: Record<string, unknown>) {
  const res = await del(u, args);
  expectError(res, 403, "confirmation_required");
  return res.body.error.confirmation as { id: string; url: string; expires_at: string; action: Record<string, unknown> };
}
async function approve(u: TestUser, args: Record<string, unknown>) {
  const c = await askApproval(u, args);
  expect(await decideApproval(await db(), u.id, c.id, "approved")).toBe(true);
  return c;
}
const approvalStatus = async (id: string) => (await (await db()).select().from(approvals).where(eq(approvals.id, id)))[0].status;
const stillThere = async (u: TestUser, id: string, type = "post") => (await call("fetch_item", { type, id }, { token: u.token })).status === 200;

describe("delete_draft", () => {
  it("is refused while the owner's publishing switch is off", async () => {
    const u = await makeUser({ publishing: false });
    const d = await post(u);
    expectError(await del(u, { type: "post", id: d.id }), 403, "publishing_not_allowed");
    expect(await stillThere(u, d.id)).toBe(true);
  });

  it("asks for the owner's approval of the exact action, then deletes once approved", async () => {
    const u = await makeUser({ publishing: true });
    const d = await post(u, "Exact title\nbody");
    const res = await del(u, { type: "post", id: d.id });
    expectError(res, 403, "confirmation_required");
    const c = res.body.error.confirmation;
    expect(Object.keys(c).sort()).toEqual(["action", "expires_at", "id", "url"]);
    expect(c.url).toBe(`${config().origin}/confirm/${c.id}`);
    expect(res.body.error.hint).toContain(c.url);
    expect(c.action).toEqual({ operation: "delete_draft", type: "post", id: d.id, title: "Exact title", scheduled_for: null });
    const ttl = Date.parse(c.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);

    // Asking again while it is pending points at the same approval.
    expect((await askApproval(u, { type: "post", id: d.id })).id).toBe(c.id);
    expect(await stillThere(u, d.id)).toBe(true);

    expect(await decideApproval(await db(), u.id, c.id, "approved")).toBe(true);
    const ok = expectOk(await del(u, { type: "post", id: d.id }), deleteDraftOp.output);
    expect(ok).toEqual({ id: d.id, type: "post", deleted: true, cancelled_schedule: false });
    expect(await approvalStatus(c.id)).toBe("used");
    expect(await stillThere(u, d.id)).toBe(false);
    expectError(await del(u, { type: "post", id: d.id }), 422, "action_failed");
  });

  it("uses an approval only for the draft and arguments it was given for", async () => {
    const u = await makeUser({ publishing: true });
    const a = await post(u, "A");
    const b = await post(u, "B");
    const ca = await approve(u, { type: "post", id: a.id });
    const cb = await askApproval(u, { type: "post", id: b.id });
    expect(cb.id).not.toBe(ca.id);
    // Naming A's approval for B does not help either.
    const named = await askApproval(u, { type: "post", id: b.id, confirmation_id: ca.id });
    expect(named.id).toBe(cb.id);
    expect(await approvalStatus(ca.id)).toBe("approved");
    expect(await stillThere(u, b.id)).toBe(true);
    expectOk(await del(u, { type: "post", id: a.id }), deleteDraftOp.output);
  });

  it("does not use an approved action when confirmation_id names another approval", async () => {
    const u = await makeUser({ publishing: true });
    const a = await post(u, "A");
    const b = await post(u, "B");
    const ca = await approve(u, { type: "post", id: a.id });
    const cb = await askApproval(u, { type: "post", id: b.id });
    await askApproval(u, { type: "post", id: a.id, confirmation_id: cb.id });
    expect(await approvalStatus(ca.id)).toBe("approved");
    expect(await stillThere(u, a.id)).toBe(true);
    expectOk(await del(u, { type: "post", id: a.id, confirmation_id: ca.id }), deleteDraftOp.output);
  });

  it("no longer matches once the draft's text changed after approval", async () => {
    const u = await makeUser({ publishing: true });
    const d = await post(u, "Original");
    const c = await approve(u, { type: "post", id: d.id });
    expect((await call("update_draft", { type: "post", id: d.id, body: "Something else" }, { token: u.token })).status).toBe(200);
    const again = await askApproval(u, { type: "post", id: d.id });
    expect(again.id).not.toBe(c.id);
    expect(await stillThere(u, d.id)).toBe(true);
  });

  it("does not accept a denied or an expired approval", async () => {
    const u = await makeUser({ publishing: true });
    const d = await post(u);
    const denied = await askApproval(u, { type: "post", id: d.id });
    expect(await decideApproval(await db(), u.id, denied.id, "denied")).toBe(true);
    const next = await askApproval(u, { type: "post", id: d.id, confirmation_id: denied.id });
    expect(next.id).not.toBe(denied.id);

    expect(await decideApproval(await db(), u.id, next.id, "approved")).toBe(true);
    await (
      await db()
    )
      .update(approvals)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(approvals.id, next.id));
    const fresh = await askApproval(u, { type: "post", id: d.id });
    expect([denied.id, next.id]).not.toContain(fresh.id);
    expect(await stillThere(u, d.id)).toBe(true);
  });

  it("cancels a pending schedule and says so", async () => {
    const u = await makeUser({ publishing: true });
    const d = await post(u);
    const when = new Date(Date.now() + 3_600_000);
    await (await db()).update(postDrafts).set({ status: "scheduled", scheduledFor: when }).where(eq(postDrafts.id, d.id));
    const c = await approve(u, { type: "post", id: d.id });
    expect(c.action.scheduled_for).toBe(when.toISOString());
    const ok = expectOk(await del(u, { type: "post", id: d.id }), deleteDraftOp.output);
    expect(ok).toEqual({ id: d.id, type: "post", deleted: true, cancelled_schedule: true });
    const left = await (await db()).select().from(postDrafts).where(eq(postDrafts.id, d.id));
    expect(left).toEqual([]);
  });

  it("removes a post's tweet drafts with it, and deletes a single tweet alone", async () => {
    const u = await makeUser({ publishing: true });
    const t1 = expectOk(await call("create_draft", { type: "tweet", body: "one" }, { token: u.token }), createDraftOp.output);
    const parent = t1.linked_post_id as string;
    const t2 = expectOk(await call("create_draft", { type: "tweet", body: "two", post_draft_id: parent }, { token: u.token }), createDraftOp.output);

    await approve(u, { type: "tweet", id: t2.id });
    expect(expectOk(await del(u, { type: "tweet", id: t2.id }), deleteDraftOp.output).type).toBe("tweet");
    expect(await stillThere(u, parent)).toBe(true);
    expect(await stillThere(u, t1.id, "tweet")).toBe(true);

    await approve(u, { type: "post", id: parent });
    expectOk(await del(u, { type: "post", id: parent }), deleteDraftOp.output);
    const gone = await call("fetch_item", { type: "tweet", id: t1.id }, { token: u.token });
    expectError(gone, 422, "action_failed");
    expect(gone.body).toEqual((await call("fetch_item", { type: "tweet", id: MISSING }, { token: u.token })).body);
  });

  it("shows the owner the tweets a post takes with it, and a tweet added after the approval needs a new one", async () => {
    const u = await makeUser({ publishing: true });
    const t1 = expectOk(await call("create_draft", { type: "tweet", body: "the first tweet" }, { token: u.token }), createDraftOp.output);
    const parent = t1.linked_post_id as string;
    const c = await askApproval(u, { type: "post", id: parent });
    expect((await approvalForOwner(await db(), u.id, c.id))?.tweets).toEqual([{ body: "the first tweet", status: "draft" }]);
    expect(await decideApproval(await db(), u.id, c.id, "approved")).toBe(true);
    // The app adds a tweet under the post after the owner approved deleting what was there.
    const t2 = expectOk(await call("create_draft", { type: "tweet", body: "added later", post_draft_id: parent }, { token: u.token }), createDraftOp.output);
    const again = await askApproval(u, { type: "post", id: parent });
    expect(again.id).not.toBe(c.id);
    expect(await stillThere(u, t2.id, "tweet")).toBe(true);
    expect((await approvalForOwner(await db(), u.id, again.id))?.tweets.map((t) => t.body)).toEqual(["the first tweet", "added later"]);
    expect(await decideApproval(await db(), u.id, again.id, "approved")).toBe(true);
    expectOk(await del(u, { type: "post", id: parent }), deleteDraftOp.output);
    expect(await stillThere(u, t2.id, "tweet")).toBe(false);
  });

  it.each([
    ["the post", postDrafts],
    ["one of its tweets", tweetDrafts],
  ] as const)("refuses while %s is being published", async (_label, table) => {
    const u = await makeUser({ publishing: true });
    const t = expectOk(await call("create_draft", { type: "tweet", body: "t" }, { token: u.token }), createDraftOp.output);
    const id = table === postDrafts ? t.linked_post_id : t.id;
    await (
      await db()
    )
      .update(table)
      .set({ status: "publishing" as DraftStatus })
      .where(eq(table.id, id));
    expectError(await del(u, { type: "post", id: t.linked_post_id }), 422, "action_failed");
    expect(await stillThere(u, t.linked_post_id)).toBe(true);
    expect(await stillThere(u, t.id, "tweet")).toBe(true);
  });

  it("answers for another user's draft exactly as for a missing one", async () => {
    const a = await makeUser({ publishing: true });
    const b = await makeUser({ publishing: true });
    const d = await post(a);
    const foreign = await del(b, { type: "post", id: d.id });
    const missing = await del(b, { type: "post", id: MISSING });
    expectError(foreign, 422, "action_failed");
    expect(foreign.body).toEqual(missing.body);
    expect(await stillThere(a, d.id)).toBe(true);
  });
});
