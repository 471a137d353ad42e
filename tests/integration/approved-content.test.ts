import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { issueCommandLineToken } from "@/lib/domain/owner/users";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { publishDueDraft } from "@/lib/domain/publishing/publish";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { unscheduleContentOp } from "@/lib/operations/publishing/unschedule-content";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { runDue } from "@/lib/adapters/scheduler";
import { approvals, postDrafts, sandboxPosts, tweetDrafts, users } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { uploadPng } from "../helpers/media";
import { approved, draft, inSeconds, row, sandboxCount } from "../helpers/publishing";

// docs/interface.md, Confirmation, point 5: approved means exactly this content. While a draft is
// scheduled, changing its title, text or image is an action the owner approves, and the
// publisher posts only content that hashes to what the owner approved.

withDatabase();

withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1" });

// Written into a row directly (behind the API's back), so it need not be an upload.
const IMG = `${config().origin}/media/00000000-0000-4000-8000-000000000001`;
const runAt = async (at: Date) => runDue(await db(), { clock: () => at });
const sandboxTexts = async (draftId: string) =>
  (await (await db()).select({ text: sandboxPosts.text }).from(sandboxPosts).where(eq(sandboxPosts.draftId, draftId))).map((r) => r.text);

/** "Hello", approved by the owner to go out at `at`. */
async function scheduledHello(u: TestUser, at = inSeconds(3600), type: "post" | "tweet" = "post") {
  const d = await draft(u, type, "Hello");
  const res = await approved(u, "schedule_content", { type, id: d.id, scheduled_for: at.toISOString() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: d.id, at };
}

describe("editing a scheduled draft's content needs the owner's approval", () => {
  it("an unapproved edit of the text is refused and changes nothing; the draft stays scheduled", async () => {
    const u = await makeUser({ publishing: true });
    const { id, at } = await scheduledHello(u);
    const before = await row("post", id);
    const res = await call("update_draft", { type: "post", id, body: "Buy my course" }, { token: u.token });
    expectError(res, 403, "confirmation_required");
    expect(res.body.error.confirmation.action).toEqual({ operation: "update_draft", type: "post", id, title: "Hello", scheduled_for: at.toISOString() });
    const after = await row("post", id);
    expect(after).toMatchObject({ body: "Hello", status: "scheduled", scheduledFor: at, approvedContentHash: before.approvedContentHash });
    expect(after.updatedAt).toEqual(before.updatedAt);
    // The approval shows the owner the current and the proposed content.
    const [a] = await (await db()).select().from(approvals).where(eq(approvals.id, res.body.error.confirmation.id));
    expect(a).toMatchObject({ operation: "update_draft", body: "Hello", imageUrl: null, proposed: { title: "Hello", body: "Buy my course", image_url: null } });
    // A repeat reuses the open approval rather than piling up new ones.
    const again = await call("update_draft", { type: "post", id, body: "Buy my course" }, { token: u.token });
    expect(again.body.error.confirmation.id).toBe(res.body.error.confirmation.id);
    await runAt(new Date(at.getTime() + 100));
    expect(await sandboxTexts(id)).toEqual(["Hello"]);
  });

  it("once approved, the same call applies the edit, keeps the schedule, and the new text is what goes out", async () => {
    const u = await makeUser({ publishing: true });
    const { id, at } = await scheduledHello(u, inSeconds(120), "tweet");
    const res = await approved(u, "update_draft", { type: "tweet", id, body: "Hello, world", if_updated_at: (await row("tweet", id)).updatedAt.toISOString() });
    const out = expectOk(res, updateDraftOp.output);
    expect(out).toMatchObject({ id, title: "Hello, world", status: "scheduled", scheduled_for: at.toISOString() });
    // The approval is used up: another edit asks again.
    expectError(await call("update_draft", { type: "tweet", id, body: "Hello, world!" }, { token: u.token }), 403, "confirmation_required");
    await runAt(new Date(at.getTime() - 500));
    expect(await sandboxCount(id)).toBe(0);
    await runAt(new Date(at.getTime() + 100));
    expect(await sandboxTexts(id)).toEqual(["Hello, world"]);
    expect((await row("tweet", id)).status).toBe("published");
  });

  it("the title and the image are content too; an approved image swap is applied", async () => {
    const u = await makeUser({ publishing: true });
    const { id } = await scheduledHello(u);
    const IMG = (await uploadPng(u)).url;
    expectError(await call("update_draft", { type: "post", id, title: "Other title" }, { token: u.token }), 403, "confirmation_required");
    const swap = await call("update_draft", { type: "post", id, image_url: IMG }, { token: u.token });
    expectError(swap, 403, "confirmation_required");
    const [a] = await (await db()).select().from(approvals).where(eq(approvals.id, swap.body.error.confirmation.id));
    expect(a.proposed).toEqual({ title: "Hello", body: "Hello", image_url: IMG, attachments: { image_urls: [IMG], document: null, thread: [] } });
    expect((await row("post", id)).imageUrl).toBeNull();
    expectOk(await approved(u, "update_draft", { type: "post", id, image_url: IMG }), updateDraftOp.output);
    expect(await row("post", id)).toMatchObject({ imageUrl: IMG, status: "scheduled" });
  });

  it("sending the content it already has needs no approval", async () => {
    const u = await makeUser({ publishing: true });
    const { id } = await scheduledHello(u);
    expectOk(await call("update_draft", { type: "post", id, body: "Hello", title: "Hello" }, { token: u.token }), updateDraftOp.output);
  });

  it("hashtags and pillar are not posted, so editing only those needs no approval and still publishes", async () => {
    const u = await makeUser({ publishing: true });
    const { id, at } = await scheduledHello(u, inSeconds(120));
    const out = expectOk(await call("update_draft", { type: "post", id, hashtags: ["#launch"] }, { token: u.token }), updateDraftOp.output);
    expect(out).toMatchObject({ status: "scheduled", scheduled_for: at.toISOString() });
    expectOk(await call("update_draft", { type: "post", id, pillar: "Shipping" }, { token: u.token }), updateDraftOp.output);
    await runAt(new Date(at.getTime() + 100));
    expect(await sandboxTexts(id)).toEqual(["Hello"]);
    expect((await row("post", id)).status).toBe("published");
  });

  it("an unscheduled draft is edited freely, and the owner then approves its new content when scheduling", async () => {
    const u = await makeUser({ publishing: true });
    const { id } = await scheduledHello(u);
    expectOk(await call("unschedule_content", { type: "post", id }, { token: u.token }), unscheduleContentOp.output);
    expect((await row("post", id)).approvedContentHash).toBeNull();
    expectOk(await call("update_draft", { type: "post", id, body: "Reworked" }, { token: u.token }), updateDraftOp.output);
  });

  it("the publishing switch is checked before the approval", async () => {
    const u = await makeUser({ publishing: true });
    const { id } = await scheduledHello(u);
    await (await db()).update(users).set({ publishingAllowed: false }).where(eq(users.id, u.id));
    const res = await call("update_draft", { type: "post", id, body: "Changed" }, { token: u.token });
    expectError(res, 403, "publishing_not_allowed");
    // Nothing is asked of the owner, nothing changes.
    expect((await (await db()).select().from(approvals).where(eq(approvals.operation, "update_draft"))).filter((a) => a.userId === u.id)).toEqual([]);
    expect((await row("post", id)).body).toBe("Hello");
  });

  it("another app of the same owner cannot use an approval given to the first", async () => {
    const u = await makeUser({ publishing: true });
    const { id } = await scheduledHello(u);
    const second = await issueCommandLineToken(await db(), { email: u.email, appName: "Second app", audience: [config().baseUrl] });
    const ask = await call("update_draft", { type: "post", id, body: "From app one" }, { token: u.token });
    const approval = ask.body.error.confirmation.id;
    expect(await decideApproval(await db(), u.id, approval, "approved")).toBe(true);
    const stolen = await call("update_draft", { type: "post", id, body: "From app one", confirmation_id: approval }, { token: second.access_token });
    expectError(stolen, 403, "confirmation_required");
    expect(stolen.body.error.confirmation.id).not.toBe(approval);
    expect((await row("post", id)).body).toBe("Hello");
    // Nor does a different edit match the approved one.
    expectError(
      await call("update_draft", { type: "post", id, body: "Something else", confirmation_id: approval }, { token: u.token }),
      403,
      "confirmation_required",
    );
    expectOk(await call("update_draft", { type: "post", id, body: "From app one", confirmation_id: approval }, { token: u.token }), updateDraftOp.output);
  });
});

describe("the publisher posts only the approved content", () => {
  it("content changed in the database behind the API's back after approval fails instead of posting", async () => {
    const u = await makeUser({ publishing: true });
    const { id, at } = await scheduledHello(u, inSeconds(120));
    await (await db()).update(postDrafts).set({ body: "Sneaked in" }).where(eq(postDrafts.id, id));
    await runAt(new Date(at.getTime() + 100));
    expect(await sandboxCount(id)).toBe(0);
    const r = await row("post", id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/^its content changed after the owner approved it/);
    const item = expectOk(await call("fetch_item", { type: "post", id }, { token: u.token }), fetchItemOp.output);
    expect(item.notes?.join(" ")).toContain("content changed after the owner approved it");
  });

  it("the same holds for the Inngest path and for a swapped image", async () => {
    const u = await makeUser({ publishing: true });
    const { id } = await scheduledHello(u, inSeconds(60), "tweet");
    const due = new Date(Date.now() - 1000);
    await (await db()).update(tweetDrafts).set({ imageUrl: IMG, scheduledFor: due }).where(eq(tweetDrafts.id, id));
    expect(await publishDueDraft(await db(), "tweet", id, ports())).toMatchObject({ status: "failed" });
    expect(await sandboxCount(id)).toBe(0);
    expect((await row("tweet", id)).failureReason).toMatch(/content changed after the owner approved it/);
  });

  it("a draft scheduled before approvals recorded a hash still goes out", async () => {
    const u = await makeUser({ publishing: true });
    const { id, at } = await scheduledHello(u, inSeconds(120));
    await (await db()).update(postDrafts).set({ approvedContentHash: null }).where(eq(postDrafts.id, id));
    await runAt(new Date(at.getTime() + 100));
    expect(await sandboxTexts(id)).toEqual(["Hello"]);
  });

  it("publish_now records the approved hash too, the same one scheduling records for the same content", async () => {
    const u = await makeUser({ publishing: true });
    const now = await draft(u, "post", "Same words");
    const later = await draft(u, "post", "Same words");
    expectOk(await approved(u, "publish_now", { type: "post", id: now.id }), publishNowOp.output);
    expect((await approved(u, "schedule_content", { type: "post", id: later.id, scheduled_for: inSeconds(3600).toISOString() })).status).toBe(200);
    const hash = (await row("post", now.id)).approvedContentHash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await row("post", later.id)).approvedContentHash).toBe(hash);
  });

  it("an approval stops matching when the image changes before it is used", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "Picture day");
    const IMG = (await uploadPng(u)).url;
    const at = inSeconds(3600).toISOString();
    const ask = await call("schedule_content", { type: "post", id: d.id, scheduled_for: at }, { token: u.token });
    expectError(ask, 403, "confirmation_required");
    expect(await decideApproval(await db(), u.id, ask.body.error.confirmation.id, "approved")).toBe(true);
    expectOk(await call("update_draft", { type: "post", id: d.id, image_url: IMG }, { token: u.token }), updateDraftOp.output);
    const repeat = await call(
      "schedule_content",
      { type: "post", id: d.id, scheduled_for: at, confirmation_id: ask.body.error.confirmation.id },
      { token: u.token },
    );
    expectError(repeat, 403, "confirmation_required");
    expect((await row("post", d.id)).status).toBe("draft");
  });
});
