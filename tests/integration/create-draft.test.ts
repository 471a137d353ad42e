import { describe, expect, it } from "vitest";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { call, expectError, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { uploadPng } from "../helpers/media";

withDatabase();

describe("create_draft", () => {
  it("saves a post with a title derived from its first line", async () => {
    const u = await makeUser();
    const body = "Shipping on Fridays is fine\n\nIf your deploys are boring, any day works.";
    const created = expectOk(await call("create_draft", { type: "post", body }, { token: u.token }), createDraftOp.output);
    expect(created).toMatchObject({ type: "post", title: "Shipping on Fridays is fine", linked_post_id: null });
    expect(created.preview.length).toBeLessThanOrEqual(120);
    const item = expectOk(await call("fetch_item", { type: "post", id: created.id }, { token: u.token }), fetchItemOp.output);
    expect(item).toMatchObject({ id: created.id, type: "post", status: "draft", body, body_truncated: false, platform: "pronet", scheduled_for: null });
  });

  it("keeps an explicit title", async () => {
    const u = await makeUser();
    const res = await call("create_draft", { type: "post", body: "text", title: "My title" }, { token: u.token });
    expect(expectOk(res, createDraftOp.output).title).toBe("My title");
  });

  it("creates a matching parent post for a tweet without post_draft_id (rule 1)", async () => {
    const u = await makeUser();
    const tweet = expectOk(await call("create_draft", { type: "tweet", body: "Short and sweet." }, { token: u.token }), createDraftOp.output);
    expect(tweet.linked_post_id).toEqual(expect.any(String));
    const parent = expectOk(await call("fetch_item", { type: "post", id: tweet.linked_post_id }, { token: u.token }), fetchItemOp.output);
    expect(parent.body).toBe("Short and sweet.");
    const item = expectOk(await call("fetch_item", { type: "tweet", id: tweet.id }, { token: u.token }), fetchItemOp.output);
    expect(item.links).toEqual({ post_draft_id: tweet.linked_post_id, personal_idea_id: null, carousel_project_id: null });
    expect(item.platform).toBe("micro");
  });

  it("stores a tweet against a given parent and reports linked_post_id null (rule 2)", async () => {
    const u = await makeUser();
    const post = expectOk(await call("create_draft", { type: "post", body: "Parent" }, { token: u.token }), createDraftOp.output);
    const tweet = expectOk(await call("create_draft", { type: "tweet", body: "Child", post_draft_id: post.id }, { token: u.token }), createDraftOp.output);
    expect(tweet.linked_post_id).toBeNull();
    const item = await call("fetch_item", { type: "tweet", id: tweet.id }, { token: u.token });
    expect(item.body.links.post_draft_id).toBe(post.id);
  });

  it("counts tweet length the way X does", async () => {
    const u = await makeUser();
    // 140 CJK characters weigh 280: accepted. One more is over.
    expectOk(await call("create_draft", { type: "tweet", body: "字".repeat(140) }, { token: u.token }), createDraftOp.output);
    const over = await call("create_draft", { type: "tweet", body: "字".repeat(141) }, { token: u.token });
    expectError(over, 400, "invalid_request");
    expect(over.body.error.details[0].path).toBe("body");
    // A long URL counts 23.
    const url = "https://example.com/" + "a".repeat(300);
    expectOk(await call("create_draft", { type: "tweet", body: `${"x".repeat(250)} ${url}` }, { token: u.token }), createDraftOp.output);
  });

  it("refuses bad input with one detail per problem and saves nothing", async () => {
    const u = await makeUser();
    const res = await call("create_draft", { type: "video", body: "", user_id: "x", status: "published" }, { token: u.token });
    expectError(res, 400, "invalid_request");
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(["body", "status", "type", "user_id"]);
    const list = await call("search_content", {}, { token: u.token });
    expect(list.body.results).toEqual([]);
  });

  it("refuses title on a tweet, post_draft_id on a post, and over-long text", async () => {
    const u = await makeUser();
    expectError(await call("create_draft", { type: "tweet", body: "a", title: "t" }, { token: u.token }), 400, "invalid_request");
    const post = await call("create_draft", { type: "post", body: "a", post_draft_id: "7b0c7a4e-4d0c-4a55-9d55-2a1f1c9e9d10" }, { token: u.token });
    expectError(post, 400, "invalid_request");
    expectError(await call("create_draft", { type: "post", body: "a".repeat(3001) }, { token: u.token }), 400, "invalid_request");
    expectError(await call("create_draft", { type: "post", body: "a", title: "t".repeat(201) }, { token: u.token }), 400, "invalid_request");
  });

  it("accepts only images hosted by this service", async () => {
    const u = await makeUser();
    const bad = await call("create_draft", { type: "post", body: "a", image_url: "https://evil.example/x.png" }, { token: u.token });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.error.details[0].path).toBe("image_url");
    const notMedia = await call("create_draft", { type: "post", body: "a", image_url: "http://localhost:3000/media/x.png" }, { token: u.token });
    expectError(notMedia, 400, "invalid_request");
    const img = (await uploadPng(u)).url;
    const good = await call("create_draft", { type: "post", body: "a", image_url: img }, { token: u.token });
    const item = await call("fetch_item", { type: "post", id: expectOk(good, createDraftOp.output).id }, { token: u.token });
    expect(item.body).toMatchObject({ image_url: img, image_urls: [img] });
  });

  it("answers like a missing id for another user's parent post", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const post = expectOk(await call("create_draft", { type: "post", body: "A's" }, { token: a.token }), createDraftOp.output);
    const foreign = await call("create_draft", { type: "tweet", body: "x", post_draft_id: post.id }, { token: b.token });
    const missing = await call("create_draft", { type: "tweet", body: "x", post_draft_id: "00000000-0000-4000-8000-000000000000" }, { token: b.token });
    expectError(foreign, 422, "action_failed");
    expect(foreign.body).toEqual(missing.body);
  });
});
