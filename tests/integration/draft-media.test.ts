import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { media, postDrafts, tweetDrafts } from "@/drizzle/schema";
import { MEDIA_STORAGE_BYTES } from "@/lib/domain/owner/allowances";
import { call, expectError, expectOk, makeUser, type Called, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { uploadPdf, uploadPng } from "../helpers/media";
import { asOwner } from "../helpers/owner";

withDatabase();

let u: TestUser;
let img: string;
let img2: string;
let doc: string;
beforeAll(async () => {
  u = await makeUser();
  img = (await uploadPng(u)).url;
  img2 = (await uploadPng(u)).url;
  doc = (await uploadPdf(u, 4)).url;
});

const create = (body: Record<string, unknown>, who = u) => call("create_draft", body, { token: who.token });
const update = (body: Record<string, unknown>, who = u) => call("update_draft", body, { token: who.token });
const fetch = async (type: "post" | "tweet", id: string) => expectOk(await call("fetch_item", { type, id }, { token: u.token }), fetchItemOp.output);
const paths = (res: Called) => res.body.error.details.map((d: { path: string }) => d.path);
const counts = async (userId: string) => {
  const d = await db();
  return [
    (await d.select({ id: postDrafts.id }).from(postDrafts).where(eq(postDrafts.userId, userId))).length,
    (await d.select({ id: tweetDrafts.id }).from(tweetDrafts).where(eq(tweetDrafts.userId, userId))).length,
  ];
};

describe("drafts with images and documents", () => {
  it("a post takes up to 20 images, a tweet up to 4; fetch_item lists them in order", async () => {
    const post = expectOk(await create({ type: "post", body: "Gallery", image_urls: [img2, ...Array(19).fill(img)] }), createDraftOp.output);
    const item = await fetch("post", post.id);
    expect(item).toMatchObject({ image_url: img2, image_urls: [img2, ...Array(19).fill(img)] });
    expect(item).not.toHaveProperty("document_url");
    expect(item).not.toHaveProperty("thread");
    const over = await create({ type: "post", body: "Too many", image_urls: Array(21).fill(img) });
    expectError(over, 400, "invalid_request");
    expect(paths(over)).toEqual(["image_urls"]);

    const tweet = expectOk(await create({ type: "tweet", body: "Four", image_urls: [img, img2, img, img2] }), createDraftOp.output);
    expect((await fetch("tweet", tweet.id)).image_urls).toEqual([img, img2, img, img2]);
    // The parent post made for it shows the same images.
    expect((await fetch("post", tweet.linked_post_id)).image_urls).toEqual([img, img2, img, img2]);
    const five = await create({ type: "tweet", body: "Five", image_urls: Array(5).fill(img) });
    expectError(five, 400, "invalid_request");
    expect(paths(five)).toEqual(["image_urls"]);
  });

  it("image_url is shorthand for one image, never together with image_urls", async () => {
    const post = expectOk(await create({ type: "post", body: "One", image_url: img }), createDraftOp.output);
    expect(await fetch("post", post.id)).toMatchObject({ image_url: img, image_urls: [img] });
    expect(paths(await create({ type: "post", body: "Both", image_url: img, image_urls: [img] }))).toEqual(["image_urls"]);
  });

  it("a post carries a PDF document with a title, never together with images; a tweet never", async () => {
    const post = expectOk(await create({ type: "post", body: "Slides", document_url: doc, document_title: "Q3 in 10 slides" }), createDraftOp.output);
    const item = await fetch("post", post.id);
    expect(item).toMatchObject({ document_url: doc, document_title: "Q3 in 10 slides" });
    expect(item).not.toHaveProperty("image_urls");
    const untitled = expectOk(await create({ type: "post", body: "Slides", document_url: doc }), createDraftOp.output);
    expect(await fetch("post", untitled.id)).not.toHaveProperty("document_title");

    const before = await counts(u.id);
    const both = await create({ type: "post", body: "x", document_url: doc, image_urls: [img] });
    expectError(both, 400, "invalid_request");
    expect(paths(both)).toEqual(["document_url"]);
    expect(paths(await create({ type: "post", body: "x", document_title: "Orphan" }))).toEqual(["document_title"]);
    expect(paths(await create({ type: "tweet", body: "x", document_url: doc }))).toEqual(["document_url"]);
    // The right kind of upload in each field.
    expect(paths(await create({ type: "post", body: "x", document_url: img }))).toEqual(["document_url"]);
    expect(paths(await create({ type: "post", body: "x", image_urls: [img, doc] }))).toEqual(["image_urls.1"]);
    expect(await counts(u.id)).toEqual(before);
  });

  it("only the caller's own uploads: another user's media answers exactly like a missing one, naming the field", async () => {
    const other = await makeUser();
    const before = await counts(other.id);
    const foreign = await create({ type: "post", body: "x", image_urls: [img] }, other);
    const missing = await create({ type: "post", body: "x", image_urls: [`${config().origin}/media/${randomUUID()}`] }, other);
    expectError(foreign, 400, "invalid_request");
    expect(paths(foreign)).toEqual(["image_urls.0"]);
    expect(foreign.body).toEqual(missing.body);
    const foreignDoc = await create({ type: "post", body: "x", document_url: doc }, other);
    expect(paths(foreignDoc)).toEqual(["document_url"]);
    // Not a media address at all: refused before any lookup.
    for (const url of ["https://evil.example/x.png", `${config().origin}/media/x.png`, `${img}?v=2`, `${config().origin}/sandbox/micro/${randomUUID()}`]) {
      const res = await create({ type: "post", body: "x", image_url: url }, other);
      expectError(res, 400, "invalid_request");
      expect(paths(res)).toEqual(["image_url"]);
    }
    expect(await counts(other.id)).toEqual(before);
    // The stranger's edit of their own draft with the owner's image changes nothing either.
    const mine = expectOk(await create({ type: "post", body: "Mine" }, other), createDraftOp.output);
    expect(paths(await update({ type: "post", id: mine.id, image_urls: [img] }, other))).toEqual(["image_urls.0"]);
  });

  it("stores one spelling of each address (the id in lower case)", async () => {
    const upper = img.replace(/[0-9a-f-]{36}$/, (id) => id.toUpperCase());
    const post = expectOk(await create({ type: "post", body: "Case", image_urls: [upper] }), createDraftOp.output);
    expect((await fetch("post", post.id)).image_urls).toEqual([img]);
  });

  it("update_draft replaces the images, removes them with [] or null, and swaps images for a document", async () => {
    const post = expectOk(await create({ type: "post", body: "Edit me", image_urls: [img, img2] }), createDraftOp.output);
    expectOk(await update({ type: "post", id: post.id, image_urls: [img2] }), updateDraftOp.output);
    expect(await fetch("post", post.id)).toMatchObject({ image_url: img2, image_urls: [img2] });
    // A document needs the images gone in the same edit.
    const clash = await update({ type: "post", id: post.id, document_url: doc });
    expectError(clash, 400, "invalid_request");
    expect(paths(clash)).toEqual(["document_url"]);
    expectOk(await update({ type: "post", id: post.id, image_url: null, document_url: doc, document_title: "Deck" }), updateDraftOp.output);
    let item = await fetch("post", post.id);
    expect(item).toMatchObject({ document_url: doc, document_title: "Deck" });
    expect(item).not.toHaveProperty("image_url");
    expect(item).not.toHaveProperty("image_urls");
    // Images cannot come back while the document is there; removing it takes its title.
    expect(paths(await update({ type: "post", id: post.id, image_urls: [img] }))).toEqual(["image_urls"]);
    expectOk(await update({ type: "post", id: post.id, document_url: null, image_urls: [img] }), updateDraftOp.output);
    item = await fetch("post", post.id);
    expect(item).toMatchObject({ image_urls: [img] });
    expect(item).not.toHaveProperty("document_title");
    const [row] = await (await db()).select().from(postDrafts).where(eq(postDrafts.id, post.id));
    expect(row).toMatchObject({ imageUrl: img, imageUrls: [img], documentUrl: null, documentTitle: null });
  });
});

describe("threads", () => {
  const parts = (n: number) => Array.from({ length: n }, (_, i) => `Part ${i + 2} of the story.`);

  it("a tweet takes 1 to 24 further parts, strings or { text, image_urls }, stored and fetched as { text, image_urls }", async () => {
    const t = expectOk(
      await create({
        type: "tweet",
        body: "A thread 🧵",
        thread: ["Second.", { text: "Third, with pictures.", image_urls: [img, img2] }, { text: "Fourth." }],
      }),
      createDraftOp.output,
    );
    const item = await fetch("tweet", t.id);
    expect(item.thread).toEqual([
      { text: "Second.", image_urls: [] },
      { text: "Third, with pictures.", image_urls: [img, img2] },
      { text: "Fourth.", image_urls: [] },
    ]);
    expect(item.body).toBe("A thread 🧵");
    const [row] = await (await db()).select().from(tweetDrafts).where(eq(tweetDrafts.id, t.id));
    expect(row.thread).toEqual(item.thread);
    expectOk(await create({ type: "tweet", body: "Longest", thread: parts(24) }), createDraftOp.output);
    const single = expectOk(await create({ type: "tweet", body: "Single" }), createDraftOp.output);
    expect(await fetch("tweet", single.id)).not.toHaveProperty("thread");
  });

  it("refuses 25 further parts, an empty thread on create, a part over 280 and a fifth image, naming the part", async () => {
    const before = await counts(u.id);
    expect(paths(await create({ type: "tweet", body: "Too long", thread: parts(25) }))).toEqual(["thread"]);
    expect(paths(await create({ type: "tweet", body: "Empty", thread: [] }))).toEqual(["thread"]);
    const long = await create({ type: "tweet", body: "Ok", thread: ["fine", "fine", "fine", "x".repeat(281)] });
    expectError(long, 400, "invalid_request");
    expect(paths(long)).toEqual(["thread.3"]);
    expect(long.body.error.details[0].message).toMatch(
      /^thread\[3\] \(part 5 of the thread\): A tweet is at most 280 characters as X counts them.*; this one is 281$/,
    );
    expect(paths(await create({ type: "tweet", body: "Ok", thread: [{ text: "字".repeat(141) }] }))).toEqual(["thread.0.text"]);
    expect(paths(await create({ type: "tweet", body: "Ok", thread: [{ text: "Pics", image_urls: Array(5).fill(img) }] }))).toEqual(["thread.0.image_urls"]);
    expect(paths(await create({ type: "tweet", body: "Ok", thread: [{ text: "Pics", image_urls: [doc] }] }))).toEqual(["thread.0.image_urls.0"]);
    expect(paths(await create({ type: "tweet", body: "Ok", thread: [{ text: "Hi", extra: 1 }] }))).toContain("thread.0.extra");
    expect(paths(await create({ type: "post", body: "Ok", thread: ["no"] }))).toEqual(["thread"]);
    expect(await counts(u.id)).toEqual(before);
  });

  it("weighs no part over 1,000 characters (weighing such text as 'ａ.ａ.' costs a tenth of a second a part), and takes a long link within it", async () => {
    const before = await counts(u.id);
    const slow = "ａ.".repeat(1500); // 3,000 characters, each slow to weigh (docs/performance.md)
    const res = await create({ type: "tweet", body: slow.slice(0, 1001), thread: Array(24).fill(slow) });
    expectError(res, 400, "invalid_request");
    expect(paths(res)).toEqual(["body", ...Array.from({ length: 24 }, (_, i) => `thread.${i}`)]);
    expect(res.body.error.details[0].message).toMatch(/at most 1000 characters, links included.*this one has 1001$/);
    expect(await counts(u.id)).toEqual(before);
    const link = `https://example.com/report?${"utm=x&".repeat(150)}`; // 904 characters, 23 as X counts it
    expectOk(await create({ type: "tweet", body: `Read this: ${link}` }), createDraftOp.output);
  });

  it("update_draft replaces the thread, and [] makes it a single tweet again", async () => {
    const t = expectOk(await create({ type: "tweet", body: "Start", thread: ["Two", "Three"] }), createDraftOp.output);
    expectOk(await update({ type: "tweet", id: t.id, thread: ["Two, rewritten", { text: "Three", image_urls: [img] }] }), updateDraftOp.output);
    expect((await fetch("tweet", t.id)).thread).toEqual([
      { text: "Two, rewritten", image_urls: [] },
      { text: "Three", image_urls: [img] },
    ]);
    expectOk(await update({ type: "tweet", id: t.id, thread: [] }), updateDraftOp.output);
    expect(await fetch("tweet", t.id)).not.toHaveProperty("thread");
    expect(paths(await update({ type: "tweet", id: t.id, thread: parts(25) }))).toEqual(["thread"]);
    expect(paths(await update({ type: "tweet", id: t.id, document_title: "x" }))).toEqual(["document_title"]);
  });
});

describe("descriptions given in the composer", () => {
  const altOf = async (url: string) =>
    (
      await (
        await db()
      )
        .select({ alt: media.altText })
        .from(media)
        .where(eq(media.id, url.split("/").pop()!))
    )[0]?.alt;
  const count = async (who: TestUser) => (await (await db()).select({ id: media.id }).from(media).where(eq(media.userId, who.id))).length;
  const compose = (who: TestUser, url: string, alt: string) =>
    asOwner(who, "compose", { drafts: [{ type: "post", body: `With ${alt}`, image_urls: [url] }], alts: [{ url, alt }], then: "save" });

  it("describe an image in place, keep it when unchanged, and copy it for another description", async () => {
    const w = await makeUser();
    const { url } = await uploadPng(w);
    const first = await compose(w, url, "A chart of deploys");
    expect((await fetch2(w, first.body.saved[0].id)).image_urls).toEqual([url]);
    expect(await altOf(url)).toBe("A chart of deploys");
    // The same description again (every save sends them all): nothing new is stored.
    await compose(w, url, "A chart of deploys");
    expect(await count(w)).toBe(1);
    // Another description: an approval may have shown the first, so the image is copied.
    const again = await compose(w, url, "Deploys per week, rising");
    const [copy] = (await fetch2(w, again.body.saved[0].id)).image_urls;
    expect(copy).not.toBe(url);
    expect([await altOf(url), await altOf(copy)]).toEqual(["A chart of deploys", "Deploys per week, rising"]);
    expect(await count(w)).toBe(2);
  });

  it("refuse a copy that does not fit the plan's storage, saving nothing", async () => {
    const w = await makeUser({ plan: "plus" });
    const { url, bytes } = await uploadPng(w);
    await compose(w, url, "First words");
    // The rest of the plan's storage taken by another file.
    await (await db()).insert(media).values({ userId: w.id, contentType: "image/png", bytes: MEDIA_STORAGE_BYTES.plus - bytes - 1, data: new Uint8Array(1) });
    const before = await count(w);
    const refused = await compose(w, url, "Other words");
    expectError(refused, 422, "action_failed");
    expect(refused.body.error.message).toMatch(/does not fit in the media storage of the plus plan/);
    expect(await count(w)).toBe(before);
    expect(await altOf(url)).toBe("First words");
  });
});

const fetch2 = async (who: TestUser, id: string) => expectOk(await call("fetch_item", { type: "post", id }, { token: who.token }), fetchItemOp.output);
