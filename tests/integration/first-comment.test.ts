import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import { draftHistory } from "@/lib/domain/drafts/history";
import { retryFirstComment } from "@/lib/domain/publishing/first-comment";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { scheduleContentOp } from "@/lib/operations/publishing/schedule-content";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { approvals, postDrafts, tweetDrafts } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { mcpClient } from "../helpers/mcp";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, inSeconds, row } from "../helpers/publishing";

// A first comment goes out right after its post, once, through the real adapters to the
// contract-holding fakes: on LinkedIn a comment on the post (Social Actions), on X a reply to
// the tweet or its thread's last part. Its failure leaves the post published, and the owner
// posts it again without the post going out twice.

withDatabase();

const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const fake = () => platforms.fake;

async function publisher() {
  const u = await makeUser({ publishing: true });
  const li = await platforms.connect(u, "linkedin");
  await platforms.connect(u, "twitter");
  return { u, member: `urn:li:person:${li.accountId}` };
}

const create = async (u: TestUser, args: Record<string, unknown>) =>
  expectOk(await call("create_draft", args, { token: u.token }), createDraftOp.output) as { id: string };
const item = async (u: TestUser, type: "post" | "tweet", id: string) =>
  expectOk(await call("fetch_item", { type, id }, { token: u.token }), fetchItemOp.output) as Record<string, any>;
const kinds = async (u: TestUser, type: "post" | "tweet", id: string) => (await draftHistory(await db(), u.id, type, id)).map((e) => e.kind);

describe("first comment", () => {
  it("LinkedIn: published now, the post gets its comment once, as the member, with its link", async () => {
    const { u, member } = await publisher();
    const text = `Our hiring guide is out ${randomUUID()}`;
    const comment = "The guide: https://example.com/guide (and thanks to @everyone who helped #team)";
    const d = await create(u, { type: "post", body: text, first_comment: comment });
    expect(await item(u, "post", d.id)).toMatchObject({ first_comment: comment });
    expect((await item(u, "post", d.id)).first_comment_result).toBeUndefined();

    const ok = expectOk(await approved(u, "publish_now", { type: "post", id: d.id }), publishNowOp.output);
    expect(fake().count("linkedin", text)).toBe(1);
    const mine = fake().comments.filter((c) => c.object === ok.platform_post_id);
    // Plain text: a comment's message is not little text, so nothing is escaped.
    expect(mine).toEqual([
      { id: expect.stringMatching(/^urn:li:comment:\(urn:li:share:\d+,\d+\)$/), object: ok.platform_post_id, actor: member, text: comment },
    ]);
    expect((await item(u, "post", d.id)).first_comment_result).toEqual({
      status: "posted",
      url: `https://www.linkedin.com/feed/update/${ok.platform_post_id}?commentUrn=${encodeURIComponent(mine[0].id)}`,
      reason: null,
    });
    expect(await kinds(u, "post", d.id)).toContain("comment_posted");
    // Another pass finds nothing more to post.
    await runDue(await db());
    expect(fake().comments.filter((c) => c.object === ok.platform_post_id)).toHaveLength(1);
  });

  it("X: a scheduled thread's first comment replies to its last part, once, in the scheduler's pass", async () => {
    const { u } = await publisher();
    const tag = randomUUID().slice(0, 8);
    const d = await create(u, {
      type: "tweet",
      body: `Thread ${tag} 1/3`,
      thread: [`Part two ${tag}`, `Part three ${tag}`],
      first_comment: `Link ${tag}: https://example.com`,
    });
    const at = inSeconds(60);
    expectOk(await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    await runDue(await db(), { clock: () => new Date(at.getTime() + 500) });
    expect((await row("tweet", d.id)).status).toBe("published");
    const parts = fake().created.x.filter((t) => t.text.includes(tag));
    expect(parts.map((t) => t.text)).toEqual([`Thread ${tag} 1/3`, `Part two ${tag}`, `Part three ${tag}`, `Link ${tag}: https://example.com`]);
    expect((parts[3].body as { reply?: { in_reply_to_tweet_id: string } }).reply).toEqual({ in_reply_to_tweet_id: parts[2].id });
    expect((await item(u, "tweet", d.id)).first_comment_result).toMatchObject({ status: "posted", url: expect.stringContaining(`/status/${parts[3].id}`) });
  });

  it("a failed comment leaves the post published; the owner posts it again, and the post never goes twice", async () => {
    const { u } = await publisher();
    const text = `Launch day ${randomUUID()}`;
    const d = await create(u, { type: "post", body: text, first_comment: "Sign up here: https://example.com" });
    fake().misbehave("linkedin-comment", "500");
    const ok = expectOk(await approved(u, "publish_now", { type: "post", id: d.id }), publishNowOp.output);
    expect((await row("post", d.id)).status).toBe("published");
    const failed = (await item(u, "post", d.id)).first_comment_result;
    expect(failed).toMatchObject({ status: "failed", url: null, reason: expect.stringMatching(/LinkedIn/) });
    expect(await kinds(u, "post", d.id)).toEqual(expect.arrayContaining(["published", "comment_failed"]));
    // Not tried again by itself.
    await runDue(await db());
    expect(fake().comments.filter((c) => c.object === ok.platform_post_id)).toHaveLength(0);

    // Another owner cannot; the owner can, once.
    const other = await makeUser({ publishing: true });
    expect(await retryFirstComment(await db(), other.id, "post", d.id, ports())).toBeNull();
    expect(await retryFirstComment(await db(), u.id, "post", d.id, ports())).toBe("posted");
    expect(await retryFirstComment(await db(), u.id, "post", d.id, ports())).toBeNull();
    expect(fake().comments.filter((c) => c.object === ok.platform_post_id)).toHaveLength(1);
    expect(fake().count("linkedin", text)).toBe(1);
    expect((await item(u, "post", d.id)).first_comment_result).toMatchObject({ status: "posted" });
  });

  it("is part of what the owner approves: changing it on a scheduled draft needs approval, and a change behind it stops the post", async () => {
    const { u } = await publisher();
    const d = await create(u, { type: "post", body: `Approved ${randomUUID()}`, first_comment: "Approved comment" });
    const at = inSeconds(60);
    const first = await call("schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() }, { token: u.token });
    expectError(first, 403, "confirmation_required");
    // What the owner is shown (the approval page, the MCP form) holds it.
    const [asked] = await (await db()).select().from(approvals).where(eq(approvals.id, first.body.error.confirmation.id));
    expect(asked.attachments).toMatchObject({ first_comment: "Approved comment" });
    expectOk(await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    expectError(await call("update_draft", { type: "post", id: d.id, first_comment: "A sneaky link" }, { token: u.token }), 403, "confirmation_required");
    // Written behind the service's back: the scheduler does not post it.
    await (await db()).update(postDrafts).set({ firstComment: "A sneaky link" }).where(eq(postDrafts.id, d.id));
    await runDue(await db(), { clock: () => new Date(at.getTime() + 500) });
    const r = await row("post", d.id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/first comment/);
    expect(fake().comments.filter((c) => c.text === "A sneaky link")).toHaveLength(0);
  });

  it("an approval to publish cannot be spent after the app changes the first comment", async () => {
    const { u } = await publisher();
    const text = `Comment swapped ${randomUUID()}`;
    const d = await create(u, { type: "post", body: text, first_comment: "The approved link" });
    const first = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    expectError(first, 403, "confirmation_required");
    expect(await decideApproval(await db(), u.id, first.body.error.confirmation.id, "approved")).toBe(true);
    expect((await call("update_draft", { type: "post", id: d.id, first_comment: "https://phishing.example" }, { token: u.token })).status).toBe(200);
    const replay = await call("publish_now", { type: "post", id: d.id, confirmation_id: first.body.error.confirmation.id }, { token: u.token });
    expectError(replay, 403, "confirmation_required");
    expect(fake().count("linkedin", text)).toBe(0);
    expect(fake().comments.filter((c) => c.text === "https://phishing.example")).toHaveLength(0);
  });

  it("is refused past each network's limit, changing nothing", async () => {
    const u = await makeUser();
    const tweet = await call("create_draft", { type: "tweet", body: "ok", first_comment: "y".repeat(281) }, { token: u.token });
    expectError(tweet, 400, "invalid_request");
    expect(tweet.body.error.details.map((x: { path: string }) => x.path)).toEqual(["first_comment"]);
    expectError(await call("create_draft", { type: "post", body: "ok", first_comment: "z".repeat(1251) }, { token: u.token }), 400, "invalid_request");
    expectError(await call("create_draft", { type: "post", body: "ok", first_comment: "   " }, { token: u.token }), 400, "invalid_request");
    const d = await create(u, { type: "post", body: "ok", first_comment: "z".repeat(1250) });
    expectError(await call("update_draft", { type: "post", id: d.id, first_comment: "z".repeat(1251) }, { token: u.token }), 400, "invalid_request");
    expect((await row("post", d.id)).firstComment).toHaveLength(1250);
    expectOk(await call("update_draft", { type: "post", id: d.id, first_comment: null }, { token: u.token }), updateDraftOp.output);
    expect((await item(u, "post", d.id)).first_comment).toBeUndefined();
  });

  it("one left waiting by a stopped process is posted by the next pass; one left posting becomes unknown, never posted again by itself", async () => {
    const { u } = await publisher();
    const waiting = await create(u, { type: "tweet", body: `Waiting ${randomUUID()}`, first_comment: "Reply after a restart" });
    const ok = expectOk(await approved(u, "publish_now", { type: "tweet", id: waiting.id }), publishNowOp.output);
    // As if the process stopped between recording the post and claiming its comment.
    const replies = () =>
      fake().created.x.filter((t) => (t.body as { reply?: { in_reply_to_tweet_id: string } }).reply?.in_reply_to_tweet_id === ok.platform_post_id);
    expect(replies()).toHaveLength(1);
    await (await db()).update(tweetDrafts).set({ firstCommentStatus: "pending", firstCommentPostId: null }).where(eq(tweetDrafts.id, waiting.id));
    await runDue(await db());
    expect(replies()).toHaveLength(2); // the next pass posted the one left waiting

    const claimedAt = new Date(Date.now() - 3600_000);
    await (await db()).update(tweetDrafts).set({ firstCommentStatus: "posting", firstCommentClaimedAt: claimedAt }).where(eq(tweetDrafts.id, waiting.id));
    await runDue(await db());
    expect((await item(u, "tweet", waiting.id)).first_comment_result).toMatchObject({ status: "unknown", reason: expect.stringMatching(/interrupted/) });
    await runDue(await db());
    expect(replies()).toHaveLength(2);
  });

  it("over MCP as over REST: the tool takes first_comment and fetch_item returns it", async () => {
    const u = await makeUser();
    const client = await mcpClient(u.token);
    const structured = (r: unknown) => (r as { structuredContent: Record<string, unknown> }).structuredContent;
    const created = structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body: "Over MCP", first_comment: "The link" } }));
    const got = structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: created.id } }));
    expect(got).toMatchObject({ first_comment: "The link" });
  });
});
