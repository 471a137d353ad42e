import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { issueCommandLineToken } from "@/lib/domain/owner/users";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { deleteDraftOp } from "@/lib/operations/drafts/delete-draft";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

const MISSING = "00000000-0000-4000-8000-000000000000";

const withKey = (u: TestUser, op: string, body: unknown, key: string) => call(op, body, { token: u.token, headers: { "idempotency-key": key } });
const countDrafts = async (u: TestUser) => (await call("search_content", { types: ["post", "tweet"], limit: 50 }, { token: u.token })).body.results.length;

describe("Idempotency-Key", () => {
  it("replays the first response for the same key and body, creating one draft", async () => {
    const u = await makeUser();
    const body = { type: "post", body: "Only once" };
    const first = expectOk(await withKey(u, "create_draft", body, "key-1"), createDraftOp.output);
    const again = expectOk(await withKey(u, "create_draft", body, "key-1"), createDraftOp.output);
    expect(again).toEqual(first);
    expect(await countDrafts(u)).toBe(1);
    // Without the key, the same body is a new draft.
    expectOk(await call("create_draft", body, { token: u.token }), createDraftOp.output);
    expect(await countDrafts(u)).toBe(2);
  });

  it("refuses the same key with a different body", async () => {
    const u = await makeUser();
    expectOk(await withKey(u, "create_draft", { type: "post", body: "A" }, "key-2"), createDraftOp.output);
    expectError(await withKey(u, "create_draft", { type: "post", body: "B" }, "key-2"), 422, "action_failed");
    // The same key on another operation is a different request too.
    expectError(await withKey(u, "update_draft", { type: "post", id: MISSING, body: "A" }, "key-2"), 422, "action_failed");
    expect(await countDrafts(u)).toBe(1);
  });

  it("keeps each user's keys apart", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const body = { type: "post", body: "Same words" };
    const ra = expectOk(await withKey(a, "create_draft", body, "shared-key"), createDraftOp.output);
    const rb = expectOk(await withKey(b, "create_draft", body, "shared-key"), createDraftOp.output);
    expect(rb.id).not.toBe(ra.id);
    expect(await countDrafts(a)).toBe(1);
    expect(await countDrafts(b)).toBe(1);
  });

  it("keeps each app's keys apart: another app of the same user never gets a response meant for the first", async () => {
    const u = await makeUser();
    const other = await issueCommandLineToken(await db(), { email: u.email, appName: "Other app", audience: [config().baseUrl] });
    const b: TestUser = { ...u, token: other.access_token, appId: other.app_id };
    // A shown-once secret: the response another app must not be able to replay.
    const hook = await call("manage_webhooks", { action: "create", url: "https://hooks.example.com/in", events: ["draft.created"] }, { token: u.token });
    const body = { action: "rotate_secret", webhook_id: hook.body.webhook.id };
    const mine = await withKey(u, "manage_webhooks", body, "rotate-1");
    const theirs = await withKey(b, "manage_webhooks", body, "rotate-1");
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.body.secret).not.toBe(mine.body.secret); // its own rotation, not a replay
    // Nor does it learn that the first app used the key with another body.
    expectOk(await withKey(b, "create_draft", { type: "post", body: "Mine" }, "create-1"), createDraftOp.output);
    expectOk(await withKey(u, "create_draft", { type: "post", body: "Theirs" }, "create-1"), createDraftOp.output);
  });

  it("runs concurrent requests with one key at most once", async () => {
    const u = await makeUser();
    const body = { type: "post", body: "Raced" };
    const answers = await Promise.all([1, 2, 3].map(() => withKey(u, "create_draft", body, "race-key")));
    const ok = answers.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    for (const r of answers.filter((x) => x.status !== 200)) expectError(r, 422, "action_failed");
    expect(await countDrafts(u)).toBe(1);
  });

  it("does not record a failed call, so the key works once the request is fixed", async () => {
    const u = await makeUser();
    const missingParent = await withKey(u, "create_draft", { type: "tweet", body: "t", post_draft_id: MISSING }, "fix-me");
    expectError(missingParent, 422, "action_failed");
    const fixed = expectOk(await withKey(u, "create_draft", { type: "tweet", body: "t" }, "fix-me"), createDraftOp.output);
    expect(fixed.linked_post_id).toEqual(expect.any(String));
    // A refused body is not recorded either.
    expectError(await withKey(u, "create_draft", { type: "post", body: "" }, "fix-2"), 400, "invalid_request");
    expectOk(await withKey(u, "create_draft", { type: "post", body: "ok" }, "fix-2"), createDraftOp.output);
  });

  it.each([
    ["too long", "k".repeat(300)],
    ["containing a space", "two words"],
    ["empty", ""],
  ])("refuses a malformed key (%s) and does nothing", async (_label, key) => {
    const u = await makeUser();
    const res = await withKey(u, "create_draft", { type: "post", body: "x" }, key);
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details[0].path).toBe("Idempotency-Key");
    expect(await countDrafts(u)).toBe(0);
  });

  it("works on update_draft", async () => {
    const u = await makeUser();
    const d = expectOk(await call("create_draft", { type: "post", body: "v1" }, { token: u.token }), createDraftOp.output);
    const edit = { type: "post", id: d.id, body: "v2" };
    const first = expectOk(await withKey(u, "update_draft", edit, "edit-1"), updateDraftOp.output);
    // Another edit in between: the replay still answers what the keyed call did, without re-running it.
    expectOk(await call("update_draft", { type: "post", id: d.id, body: "v3" }, { token: u.token }), updateDraftOp.output);
    expect(expectOk(await withKey(u, "update_draft", edit, "edit-1"), updateDraftOp.output)).toEqual(first);
    expect((await call("fetch_item", { type: "post", id: d.id }, { token: u.token })).body.body).toBe("v3");
    expectError(await withKey(u, "update_draft", { ...edit, body: "v4" }, "edit-1"), 422, "action_failed");
  });

  it("works on delete_draft across the approval round trip", async () => {
    const u = await makeUser({ publishing: true });
    const d = expectOk(await call("create_draft", { type: "post", body: "bye" }, { token: u.token }), createDraftOp.output);
    const args = { type: "post", id: d.id };
    const asked = await withKey(u, "delete_draft", args, "del-1");
    expectError(asked, 403, "confirmation_required");
    expect(await decideApproval(await db(), u.id, asked.body.error.confirmation.id, "approved")).toBe(true);
    const done = expectOk(await withKey(u, "delete_draft", args, "del-1"), deleteDraftOp.output);
    expect(done).toEqual({ id: d.id, type: "post", deleted: true, cancelled_schedule: false });
    // A retry with the key gets the same success instead of "not found".
    expect(expectOk(await withKey(u, "delete_draft", args, "del-1"), deleteDraftOp.output)).toEqual(done);
    expectError(await call("delete_draft", args, { token: u.token }), 422, "action_failed");
  });
});
