import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { approvalForOwner } from "@/lib/domain/accounts/connections";
import { contentHashOf } from "@/lib/domain/drafts/content-hash";
import { sha256 } from "@/lib/domain/hash";
import { confirmationForm } from "@/lib/transports/mcp/approvals/elicitation";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { runDue } from "@/lib/adapters/scheduler";
import { approvals, postDrafts, tweetDrafts } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { png, upload, uploadPdf, uploadPng } from "../helpers/media";
import { approved, inSeconds, row, sandboxCount } from "../helpers/publishing";

// Contract 4.5 with media: approved means exactly this content, images, document and every
// thread part included.

withDatabase();
withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1" });

const tweetRow = async (id: string) => (await (await db()).select().from(tweetDrafts).where(eq(tweetDrafts.id, id)))[0];
const postRow = async (id: string) => (await (await db()).select().from(postDrafts).where(eq(postDrafts.id, id)))[0];
const approvalRow = async (id: string) => (await (await db()).select().from(approvals).where(eq(approvals.id, id)))[0];

/** A draft approved by the owner to go out at `at`. */
async function scheduled(u: TestUser, body: Record<string, unknown>, at = inSeconds(3600)) {
  const d = expectOk(await call("create_draft", body, { token: u.token }), createDraftOp.output);
  const res = await approved(u, "schedule_content", { type: body.type, id: d.id, scheduled_for: at.toISOString() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: d.id as string, at };
}

describe("the content hash", () => {
  it("is unchanged for text with at most one image, so drafts approved before the upgrade still go out", () => {
    const old = (c: { title: string; body: string; image_url: string | null }) => sha256(c);
    expect(contentHashOf({ title: "T", body: "B", imageUrl: null, imageUrls: [] })).toBe(old({ title: "T", body: "B", image_url: null }));
    expect(contentHashOf({ title: "T", body: "B", imageUrl: "u", imageUrls: ["u"] })).toBe(old({ title: "T", body: "B", image_url: "u" }));
  });

  it("changes with every image, the document and each thread part", () => {
    const base = {
      title: "T",
      body: "B",
      imageUrl: "a",
      imageUrls: ["a", "b"],
      documentUrl: null,
      documentTitle: null,
      thread: [{ text: "2", image_urls: ["c"] }],
    };
    const variants = [
      base,
      { ...base, imageUrls: ["b", "a"] },
      { ...base, imageUrls: ["a"] },
      { ...base, imageUrl: "z" },
      { ...base, thread: [{ text: "2!", image_urls: ["c"] }] },
      { ...base, thread: [{ text: "2", image_urls: ["d"] }] },
      { ...base, thread: [] },
      { ...base, imageUrls: [], imageUrl: null, documentUrl: "p" },
      { ...base, imageUrls: [], imageUrl: null, documentUrl: "p", documentTitle: "Deck" },
    ];
    expect(new Set(variants.map(contentHashOf)).size).toBe(variants.length);
  });
});

describe("editing a scheduled draft's media or thread needs the owner's approval", () => {
  it("a thread part: refused with the approval showing every part, current and proposed; once approved it is applied", async () => {
    const u = await makeUser({ publishing: true });
    const pic = (await upload(u, await png(), "image/png", { alt_text: "Sales by week" })).url;
    const { id, at } = await scheduled(u, { type: "tweet", body: "Part one", thread: ["Part two", { text: "Part three", image_urls: [pic] }] });
    const before = await tweetRow(id);
    const edit = { type: "tweet", id, thread: ["Part two, sharper", { text: "Part three", image_urls: [pic] }] };
    const res = await call("update_draft", edit, { token: u.token });
    expectError(res, 403, "confirmation_required");
    expect(await tweetRow(id)).toMatchObject({ thread: before.thread, approvedContentHash: before.approvedContentHash });
    const a = await approvalRow(res.body.error.confirmation.id);
    expect(a.attachments).toEqual({
      image_urls: [],
      document: null,
      thread: [
        { text: "Part two", image_urls: [] },
        { text: "Part three", image_urls: [pic] },
      ],
    });
    expect(a.proposed?.attachments?.thread).toEqual([
      { text: "Part two, sharper", image_urls: [] },
      { text: "Part three", image_urls: [pic] },
    ]);
    // What the owner's page reads, and what a trusted client's form shows.
    expect((await approvalForOwner(await db(), u.id, a.id))?.attachments).toEqual(a.attachments);
    const form = await confirmationForm(await db(), { ...(await caller(u)) }, res.body.error.confirmation);
    expect(form.message).toContain("Thread part 2 of 3:\nPart two\n");
    // The description posted with the image is shown too, as on the page.
    expect(form.message).toContain(`Thread part 3 of 3:\nPart three\n  Image 1 of 1: ${pic}, posted with the description "Sales by week"`);
    expect(form.message).toContain("Proposed images, document, thread parts and first comment:\nThread part 2 of 3:\nPart two, sharper");

    const out = expectOk(await approved(u, "update_draft", edit), updateDraftOp.output);
    expect(out).toMatchObject({ status: "scheduled", scheduled_for: at.toISOString() });
    const after = await tweetRow(id);
    expect(after.thread[0].text).toBe("Part two, sharper");
    expect(after.approvedContentHash).toBe(contentHashOf(after));
    expect(after.approvedContentHash).not.toBe(before.approvedContentHash);
  });

  it("swapping, reordering or adding an image, and changing the document or its title, each need approval", async () => {
    const u = await makeUser({ publishing: true });
    const [a, b] = [(await uploadPng(u)).url, (await uploadPng(u)).url];
    const doc = (await uploadPdf(u, 3)).url;
    const gallery = await scheduled(u, { type: "post", body: "Gallery", image_urls: [a, b] });
    for (const image_urls of [[b, a], [a], [a, b, a]]) {
      expectError(await call("update_draft", { type: "post", id: gallery.id, image_urls }, { token: u.token }), 403, "confirmation_required");
    }
    const ask = await call("update_draft", { type: "post", id: gallery.id, image_urls: [b, a] }, { token: u.token });
    const shown = await approvalRow(ask.body.error.confirmation.id);
    expect(shown.attachments?.image_urls).toEqual([a, b]);
    expect(shown.proposed?.attachments?.image_urls).toEqual([b, a]);
    // The same images again need nothing.
    expectOk(await call("update_draft", { type: "post", id: gallery.id, image_urls: [a, b] }, { token: u.token }), updateDraftOp.output);

    const deck = await scheduled(u, { type: "post", body: "Deck", document_url: doc, document_title: "Q3" });
    const retitle = await call("update_draft", { type: "post", id: deck.id, document_title: "Q3, final" }, { token: u.token });
    expectError(retitle, 403, "confirmation_required");
    const r = await approvalRow(retitle.body.error.confirmation.id);
    expect(r.attachments?.document).toEqual({ url: doc, title: "Q3" });
    expect(r.proposed?.attachments?.document).toEqual({ url: doc, title: "Q3, final" });
    const form = await confirmationForm(await db(), await caller(u), retitle.body.error.confirmation);
    expect(form.message).toContain(`Document: Q3 (3 pages): ${doc}`);
    expect(form.message).toContain(`Document: Q3, final (3 pages): ${doc}`);
    expectOk(await approved(u, "update_draft", { type: "post", id: deck.id, document_title: "Q3, final" }), updateDraftOp.output);
    expect((await postRow(deck.id)).documentTitle).toBe("Q3, final");
  });

  it("scheduling records the attachments of what the owner approves", async () => {
    const u = await makeUser({ publishing: true });
    const pic = (await uploadPng(u)).url;
    const d = expectOk(
      await call("create_draft", { type: "tweet", body: "One", image_urls: [pic], thread: ["Two"] }, { token: u.token }),
      createDraftOp.output,
    );
    const ask = await call("schedule_content", { type: "tweet", id: d.id, scheduled_for: inSeconds(3600).toISOString() }, { token: u.token });
    expectError(ask, 403, "confirmation_required");
    expect((await approvalRow(ask.body.error.confirmation.id)).attachments).toEqual({
      image_urls: [pic],
      document: null,
      thread: [{ text: "Two", image_urls: [] }],
    });
  });
});

describe("the publisher posts only the approved thread", () => {
  it("a thread changed after approval is a content hash mismatch: failed, nothing posted", async () => {
    const u = await makeUser({ publishing: true });
    const { id, at } = await scheduled(u, { type: "tweet", body: "One", thread: ["Two", "Three"] }, inSeconds(120));
    await (
      await db()
    )
      .update(tweetDrafts)
      .set({
        thread: [
          { text: "Two", image_urls: [] },
          { text: "Buy my course", image_urls: [] },
        ],
      })
      .where(eq(tweetDrafts.id, id));
    await runDue(await db(), { clock: () => new Date(at.getTime() + 100) });
    expect(await sandboxCount(id)).toBe(0);
    const r = await row("tweet", id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(
      /^its content changed after the owner approved it \(title, text, images, document, thread parts, first comment, link card or account differ/,
    );
  });
});

async function caller(u: TestUser) {
  return { userId: u.id, appName: "Command line", timezone: "UTC" } as Parameters<typeof confirmationForm>[1];
}
