import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { accountHealth } from "@/lib/domain/accounts/health";
import { draftTable } from "@/lib/domain/drafts/drafts";
import { mediaUrl } from "@/lib/core/media-url";
import { computedLinkedInVersion } from "@/lib/adapters/platforms/linkedin-version";
import { findSandboxPost, sandboxThread } from "@/lib/adapters/platforms/sandbox";
import { runDue } from "@/lib/adapters/scheduler";
import { media, sandboxPosts } from "@/drizzle/schema";
import type { ThreadPart } from "@/drizzle/schema/tweet-drafts";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { reconfigure, withConfig } from "../helpers/env";
import { approved, draft, row } from "../helpers/publishing";

// Images, documents and threads through the real adapters against the loopback fakes, and
// the part-by-part record that lets a failed thread resume without re-posting anything.

withDatabase();

const platforms = withFakePlatforms();
const { connect } = platforms;

const publisher = async () => {
  const u = await makeUser({ publishing: true });
  const { accountId: member } = await connect(u, "linkedin");
  await connect(u, "twitter");
  return { u, author: `urn:li:person:${member}` };
};

let shade = 0;
/** A real PNG in the user's media library; its bytes are what the platform must receive. */
async function image(u: TestUser, altText: string | null = null) {
  shade = (shade + 37) % 256;
  const data = await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: shade, g: 100, b: 200 } } })
    .png()
    .toBuffer();
  const [m] = await (
    await db()
  )
    .insert(media)
    .values({ userId: u.id, contentType: "image/png", altText, bytes: data.length, width: 8, height: 6, data })
    .returning({ id: media.id });
  return { id: m.id, url: mediaUrl(config().origin, m.id), data };
}
async function pdf(u: TestUser, pages = 3) {
  const data = Buffer.from(`%PDF-1.4\n% a ${pages}-page deck ${randomUUID()}\n%%EOF\n`);
  const [m] = await (
    await db()
  )
    .insert(media)
    .values({ userId: u.id, contentType: "application/pdf", filename: "deck.pdf", bytes: data.length, pages, data })
    .returning({ id: media.id });
  return { id: m.id, url: mediaUrl(config().origin, m.id), data };
}
/** Sets the draft's media/thread columns directly (the media engineer's operations write them). */
async function set(type: "post" | "tweet", id: string, values: Record<string, unknown>) {
  const t = draftTable(type);
  await (await db()).update(t).set(values).where(eq(t.id, id));
}
const publishNow = (u: TestUser, type: "post" | "tweet", id: string) => approved(u, "publish_now", { type, id });
const uploaded = (data: Buffer) => [...platforms.fake.uploads.values()].filter((x) => x.bytes?.equals(data));
/** A thread draft: body + parts 2..n, each text unique to this test. */
async function thread(u: TestUser, n: number, images: Record<number, string[]> = {}) {
  const tag = randomUUID().slice(0, 8);
  const texts = Array.from({ length: n }, (_, i) => `Part ${i + 1} of the thread ${tag}`);
  const d = await draft(u, "tweet", texts[0]);
  const parts: ThreadPart[] = texts.slice(1).map((text, i) => ({ text, image_urls: images[i + 2] ?? [] }));
  await set("tweet", d.id, { thread: parts, ...(images[1] && { imageUrls: images[1], imageUrl: images[1][0] }) });
  return { id: d.id, texts, tweets: () => platforms.fake.created.x.filter((t) => t.text.endsWith(tag)) };
}

describe("LinkedIn images and documents", () => {
  it("posts one image through the Images API: initializeUpload with the member as owner, the stored bytes PUT, then content.media", async () => {
    const { u, author } = await publisher();
    const img = await image(u, "A chart of weekly sign-ups");
    const d = await draft(u, "post", `One image ${randomUUID()}`);
    await set("post", d.id, { imageUrl: img.url, imageUrls: [img.url] });
    const res = await publishNow(u, "post", d.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [up] = uploaded(img.data);
    expect(up).toMatchObject({ kind: "image", owner: author, contentType: "image/png" });
    const init = platforms.fake.mediaRequests.find((r) => r.path === "/rest/images" && r.headers.authorization?.startsWith("Bearer linkedin-tok"));
    expect(init?.headers).toMatchObject({ "linkedin-version": computedLinkedInVersion(new Date()), "x-restli-protocol-version": "2.0.0" });
    const post = platforms.fake.created.linkedin.find((p) => p.body.author === author)!;
    expect(post.body.content).toEqual({ media: { id: up.id, altText: "A chart of weekly sign-ups" } });
    const r = await row("post", d.id);
    expect(r.status).toBe("published");
    expect(r.platformPostId).toBe(post.id);
    expect(r.publishProgress).toEqual({ parts: [{ postId: post.id, url: `https://www.linkedin.com/feed/update/${post.id}` }], media: { [img.id]: up.id } });
  });

  it("posts 2-20 images as content.multiImage, in order, each with its alt text", async () => {
    const { u, author } = await publisher();
    const imgs = [await image(u, "First"), await image(u, "Second"), await image(u, "Third")];
    const d = await draft(u, "post", `Three images ${randomUUID()}`);
    await set("post", d.id, { imageUrl: imgs[0].url, imageUrls: imgs.map((i) => i.url) });
    expect((await publishNow(u, "post", d.id)).status).toBe(200);
    const post = platforms.fake.created.linkedin.find((p) => p.body.author === author)!;
    const urns = imgs.map((i) => uploaded(i.data)[0].id);
    expect(post.body.content).toEqual({ multiImage: { images: urns.map((id, i) => ({ id, altText: ["First", "Second", "Third"][i] })) } });
  });

  it("posts a PDF through the Documents API as content.media with its title", async () => {
    const { u, author } = await publisher();
    const doc = await pdf(u);
    const d = await draft(u, "post", `A deck ${randomUUID()}`);
    await set("post", d.id, { documentUrl: doc.url, documentTitle: "Q3 in ten slides" });
    expect((await publishNow(u, "post", d.id)).status).toBe(200);
    const [up] = uploaded(doc.data);
    expect(up).toMatchObject({ kind: "document", owner: author, contentType: "application/pdf" });
    expect(up.id).toMatch(/^urn:li:document:/);
    const post = platforms.fake.created.linkedin.find((p) => p.body.author === author)!;
    expect(post.body.content).toEqual({ media: { id: up.id, title: "Q3 in ten slides" } });
  });

  it("media stored under an earlier APP_URL still go out with the post and the thread (never text alone)", async () => {
    const { u, author } = await publisher();
    const earlier = (m: { id: string }) => mediaUrl("http://old-host.example:3000", m.id);
    const img = await image(u, "Drawn before the move");
    const d = await draft(u, "post", `Moved ${randomUUID()}`);
    await set("post", d.id, { imageUrl: earlier(img), imageUrls: [earlier(img)] });
    expect((await publishNow(u, "post", d.id)).status).toBe(200);
    const post = platforms.fake.created.linkedin.find((p) => p.body.author === author)!;
    expect(post.body.content).toEqual({ media: { id: uploaded(img.data)[0].id, altText: "Drawn before the move" } });

    const partImage = await image(u);
    const t = await thread(u, 2, { 2: [earlier(partImage)] });
    const res = await publishNow(u, "tweet", t.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(t.tweets()[1].body.media).toEqual({ media_ids: [uploaded(partImage.data)[0]?.id] });
    expect(uploaded(partImage.data)).toHaveLength(1);

    // One that is no upload of this user's fails the draft, as a deleted one does.
    const gone = await draft(u, "post", `Gone ${randomUUID()}`);
    await set("post", gone.id, { imageUrl: earlier({ id: randomUUID() }), imageUrls: [earlier({ id: randomUUID() })] });
    expectError(await publishNow(u, "post", gone.id), 422, "action_failed");
    expect((await row("post", gone.id)).failureReason).toContain("no longer exist");
  });

  it("a refused document upload fails the post without posting anything", async () => {
    const { u, author } = await publisher();
    const doc = await pdf(u);
    const d = await draft(u, "post", `Refused deck ${randomUUID()}`);
    await set("post", d.id, { documentUrl: doc.url, documentTitle: "Refused" });
    platforms.fake.misbehave("linkedin-upload", "refuse");
    expectError(await publishNow(u, "post", d.id), 422, "action_failed");
    const r = await row("post", d.id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/^LinkedIn refused the document upload \(400/);
    expect(platforms.fake.created.linkedin.filter((p) => p.body.author === author)).toHaveLength(0);
  });

  it("an image uploaded before the post failed is recorded and not uploaded again on the retry", async () => {
    const { u, author } = await publisher();
    const img = await image(u);
    const d = await draft(u, "post", `Retry with image ${randomUUID()}`);
    await set("post", d.id, { imageUrl: img.url, imageUrls: [img.url] });
    platforms.fake.misbehave("linkedin", "500");
    expectError(await publishNow(u, "post", d.id), 422, "action_failed");
    const r = await row("post", d.id);
    expect(r.status).toBe("scheduled");
    expect(Object.keys(r.publishProgress!.media)).toEqual([img.id]);
    await runDue(await db(), { clock: () => new Date(r.nextAttemptAt!.getTime() + 1000) });
    expect((await row("post", d.id)).status).toBe("published");
    expect(uploaded(img.data)).toHaveLength(1);
    expect(platforms.fake.created.linkedin.filter((p) => p.body.author === author)).toHaveLength(1);
  });
});

describe("X media and threads", () => {
  it("uploads images through POST /2/media/upload, sets alt text through /2/media/metadata, and tweets media.media_ids", async () => {
    const { u } = await publisher();
    const a = await image(u, "A whiteboard sketch");
    const b = await image(u);
    const t = await thread(u, 1, { 1: [a.url, b.url] });
    expect((await publishNow(u, "tweet", t.id)).status).toBe(200);
    const ua = uploaded(a.data)[0];
    const ub = uploaded(b.data)[0];
    expect(ua).toMatchObject({ kind: "media", contentType: "image/png", altText: "A whiteboard sketch" });
    expect(ub.altText).toBeUndefined();
    const [tweet] = t.tweets();
    expect(tweet.body).toEqual({ text: t.texts[0], media: { media_ids: [ua.id, ub.id] } });
  });

  it("posts a 5-part thread in order, each part replying to the one before; the draft's link is the first part's", async () => {
    const { u } = await publisher();
    const img = await image(u, "Part three's picture");
    const t = await thread(u, 5, { 3: [img.url] });
    const res = await publishNow(u, "tweet", t.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tweets = t.tweets();
    expect(tweets.map((x) => x.text)).toEqual(t.texts);
    expect(tweets[0].body.reply).toBeUndefined();
    for (let i = 1; i < 5; i++) expect(tweets[i].body.reply).toEqual({ in_reply_to_tweet_id: tweets[i - 1].id });
    expect(tweets[2].body.media).toEqual({ media_ids: [uploaded(img.data)[0].id] });
    const r = await row("tweet", t.id);
    expect(r.platformPostId).toBe(tweets[0].id);
    expect(r.platformUrl).toBe(`https://x.com/writer/status/${tweets[0].id}`);
    expect(res.body.url).toBe(r.platformUrl);
    expect(r.publishProgress!.parts.map((p) => p.postId)).toEqual(tweets.map((x) => x.id));
  });

  it("a thread refused at part 3 keeps parts 1-2 and says so; publishing again posts 3-5 only, part 3 replying to part 2", async () => {
    const { u } = await publisher();
    const t = await thread(u, 5);
    platforms.fake.failAt("x", 3, "refuse");
    const failed = await publishNow(u, "tweet", t.id);
    expectError(failed, 422, "action_failed");
    // The caller is told what is already out, never that nothing was posted.
    expect(failed.body.error.hint).toMatch(/^Parts 1–2 are posted and will not be posted again\. Fix the cause, then publish again to post the rest/);
    let r = await row("tweet", t.id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/^posted parts 1–2 of 5; part 3 failed: X refused the tweet \(400/);
    expect(r.failureReason).toContain("continues with part 3");
    expect(r.publishProgress!.parts).toHaveLength(2);
    expect(t.tweets()).toHaveLength(2);

    const again = await publishNow(u, "tweet", t.id);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const tweets = t.tweets();
    expect(tweets.map((x) => x.text)).toEqual(t.texts);
    for (const text of t.texts) expect(platforms.fake.count("x", text)).toBe(1);
    expect(tweets[2].body.reply).toEqual({ in_reply_to_tweet_id: tweets[1].id });
    r = await row("tweet", t.id);
    expect(r.status).toBe("published");
    expect(r.platformPostId).toBe(tweets[0].id);
    expect(again.body.url).toBe(`https://x.com/writer/status/${tweets[0].id}`);
  });

  it("after parts 1-2 are out, an edit may not rewrite them (the thread that is out stays what the draft says); later parts may change", async () => {
    const { u } = await publisher();
    const t = await thread(u, 4);
    platforms.fake.failAt("x", 3, "refuse");
    expectError(await publishNow(u, "tweet", t.id), 422, "action_failed");
    // Swapping a posted part, directly or by rewriting the body, is refused and changes nothing.
    const rest = t.texts.slice(2);
    for (const edit of [{ thread: ["Another part 2", ...rest] }, { body: "Another first tweet" }]) {
      const res = await call("update_draft", { type: "tweet", id: t.id, ...edit }, { token: u.token });
      expectError(res, 422, "action_failed");
      expect(res.body.error.message).toMatch(/Parts 1–2 of this thread are already posted/);
    }
    expect((await row("tweet", t.id)).body).toBe(t.texts[0]);
    // A part not yet out may change; publishing again posts the new part 3 after the old part 2.
    const edited = `${t.texts[2]} (edited)`;
    expect((await call("update_draft", { type: "tweet", id: t.id, thread: [t.texts[1], edited, t.texts[3]] }, { token: u.token })).status).toBe(200);
    expect((await publishNow(u, "tweet", t.id)).status).toBe(200);
    const tweets = platforms.fake.created.x.filter((x) => x.text.includes(t.texts[0].slice(-8)));
    expect(tweets.map((x) => x.text)).toEqual([t.texts[0], t.texts[1], edited, t.texts[3]]);
  });

  it("a server error at part 3 is retried by the scheduler from part 3, never re-posting 1-2", async () => {
    const { u } = await publisher();
    const t = await thread(u, 5);
    const at = new Date(Date.now() - 1000);
    await set("tweet", t.id, { status: "scheduled", scheduledFor: at });
    platforms.fake.failAt("x", 3, "500");
    await runDue(await db(), { clock: () => new Date(at.getTime() + 1000) });
    const r = await row("tweet", t.id);
    expect(r.status).toBe("scheduled");
    expect(r.failureReason).toMatch(/^posted parts 1–2 of 5; part 3 failed: X had a server error/);
    // A clock that moves a second per reading: each recorded part moves claimed_at along
    // (the stuck sweep measures from the last sign of life, not from the claim).
    let tick = r.nextAttemptAt!.getTime() + 1000;
    await runDue(await db(), { clock: () => new Date((tick += 1000)) });
    const done = await row("tweet", t.id);
    expect(done.status).toBe("published");
    expect(done.claimedAt!.getTime()).toBeGreaterThanOrEqual(r.nextAttemptAt!.getTime() + 5000);
    expect(t.tweets().map((x) => x.text)).toEqual(t.texts);
    for (const text of t.texts) expect(platforms.fake.count("x", text)).toBe(1);
  });

  it("a 429 at part 2 waits for X's reset time, then continues with part 2", async () => {
    const { u } = await publisher();
    const t = await thread(u, 3);
    platforms.fake.failAt("x", 2, "429");
    expectError(await publishNow(u, "tweet", t.id), 422, "action_failed");
    const r = await row("tweet", t.id);
    expect(r.status).toBe("scheduled");
    expect(r.failureReason).toMatch(/^posted part 1 of 3; part 2 failed: X rate limit reached \(429\)/);
    expect(r.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(Date.now() + 50_000);
    await runDue(await db(), { clock: () => new Date(r.nextAttemptAt!.getTime() + 1000) });
    expect((await row("tweet", t.id)).status).toBe("published");
    expect(t.tweets().map((x) => x.text)).toEqual(t.texts);
    for (const text of t.texts) expect(platforms.fake.count("x", text)).toBe(1);
  });

  it("a part's media upload is recorded as it succeeds and not uploaded again when the part is resumed", async () => {
    const { u } = await publisher();
    const img = await image(u, "Only once");
    const t = await thread(u, 3, { 2: [img.url] });
    platforms.fake.failAt("x", 2, "500");
    expectError(await publishNow(u, "tweet", t.id), 422, "action_failed");
    const r = await row("tweet", t.id);
    expect(r.status).toBe("scheduled");
    const [up] = uploaded(img.data);
    expect(r.publishProgress).toMatchObject({ parts: [{ postId: t.tweets()[0].id }], media: { [img.id]: up.id } });
    await runDue(await db(), { clock: () => new Date(r.nextAttemptAt!.getTime() + 1000) });
    expect((await row("tweet", t.id)).status).toBe("published");
    expect(uploaded(img.data)).toHaveLength(1);
    expect(t.tweets()[1].body.media).toEqual({ media_ids: [up.id] });
  });

  it("a recorded X upload that has expired by the time the thread resumes is uploaded again", async () => {
    const { u } = await publisher();
    const img = await image(u);
    const t = await thread(u, 2, { 2: [img.url] });
    platforms.fake.failAt("x", 2, "refuse");
    expectError(await publishNow(u, "tweet", t.id), 422, "action_failed");
    const r = await row("tweet", t.id);
    expect(r.status).toBe("failed");
    expect(r.publishProgress!.mediaExpires![img.id]).toBeTruthy();
    // Two days later (X forgets unused uploads after a day) the scheduler resumes it.
    const later = new Date(Date.now() + 2 * 86400_000);
    await set("tweet", t.id, { status: "scheduled", scheduledFor: new Date(later.getTime() - 1000), firstAttemptAt: null });
    await runDue(await db(), { clock: () => later });
    expect((await row("tweet", t.id)).status).toBe("published");
    const ups = uploaded(img.data);
    expect(ups).toHaveLength(2);
    expect(t.tweets().map((x) => x.text)).toEqual(t.texts);
    expect(t.tweets()[1].body.media).toEqual({ media_ids: [ups[1].id] });
  });

  it("an upload whose answer is lost is retried (an upload alone publishes nothing)", async () => {
    const { u } = await publisher();
    const img = await image(u);
    const t = await thread(u, 1, { 1: [img.url] });
    platforms.fake.misbehave("x-upload", "reset");
    expectError(await publishNow(u, "tweet", t.id), 422, "action_failed");
    const r = await row("tweet", t.id);
    expect(r.status).toBe("scheduled");
    expect(r.failureReason).toContain("nothing was published");
    await runDue(await db(), { clock: () => new Date(r.nextAttemptAt!.getTime() + 1000) });
    expect((await row("tweet", t.id)).status).toBe("published");
    expect(platforms.fake.count("x", t.texts[0])).toBe(1);
  });

  it("a connection cut after part 2 was sent makes the draft unknown, naming the part; it is not resumed blindly", async () => {
    const { u } = await publisher();
    const t = await thread(u, 3);
    platforms.fake.failAt("x", 2, "reset");
    expectError(await publishNow(u, "tweet", t.id), 422, "action_failed");
    const r = await row("tweet", t.id);
    expect(r.status).toBe("unknown");
    expect(r.failureReason).toMatch(/^posted part 1 of 3; part 2 failed: .*may or may not/);
    expect(r.publishProgress!.parts).toHaveLength(1);
    await runDue(await db(), { clock: () => new Date(Date.now() + 3600_000) });
    expectError(await publishNow(u, "tweet", t.id), 422, "action_failed");
    expect(t.tweets().map((x) => x.text)).toEqual(t.texts.slice(0, 2));
  });
});

describe("LinkedIn-Version", () => {
  it("defaults to three months before the clock's date", () => {
    expect(computedLinkedInVersion(new Date("2026-11-22T20:00:00Z"))).toBe("202608");
    expect(computedLinkedInVersion(new Date("2027-02-01T00:00:00Z"))).toBe("202611");
    expect(computedLinkedInVersion(new Date("2026-03-31T23:59:59Z"))).toBe("202512");
  });

  it("follows the injected clock when no LINKEDIN_VERSION is configured", async () => {
    const { u, author } = await publisher();
    const d = await draft(u, "post", `Clocked ${randomUUID()}`);
    const now = new Date(Date.now() - 40 * 86400_000);
    await set("post", d.id, { status: "scheduled", scheduledFor: new Date(now.getTime() - 1000) });
    await runDue(await db(), { clock: () => now });
    expect((await row("post", d.id)).status).toBe("published");
    const sent = platforms.fake.requests.filter((r) => (r.body as { author?: string })?.author === author);
    expect(sent.map((r) => r.headers["linkedin-version"])).toEqual([computedLinkedInVersion(now)]);
  });

  it("a retired LINKEDIN_VERSION (426) is retried once with the computed one, and account health tells the owner; a working one clears it", async () => {
    const back = reconfigure({ LINKEDIN_VERSION: "202301" });
    try {
      const { u, author } = await publisher();
      const img = await image(u);
      const d = await draft(u, "post", `Stale version ${randomUUID()}`);
      await set("post", d.id, { imageUrl: img.url, imageUrls: [img.url] });
      const res = await publishNow(u, "post", d.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const computed = computedLinkedInVersion(new Date());
      // The first call (the image's initializeUpload) met the 426; the rest went out with the computed version.
      const images = platforms.fake.mediaRequests.filter((r) => r.path === "/rest/images");
      expect(images.map((r) => r.headers["linkedin-version"]).slice(-2)).toEqual(["202301", computed]);
      const sent = platforms.fake.requests.filter((r) => (r.body as { author?: string })?.author === author);
      expect(sent.map((r) => r.headers["linkedin-version"])).toEqual([computed]);
      const [li] = await accountHealth(await db(), u.id, ports());
      expect(li.notice).toMatch(/LINKEDIN_VERSION is set to 202301, which LinkedIn no longer accepts/);

      back();
      const d2 = await draft(u, "post", `Current version ${randomUUID()}`);
      expect((await publishNow(u, "post", d2.id)).status).toBe(200);
      expect((await accountHealth(await db(), u.id, ports()))[0].notice).toBeNull();
    } finally {
      back();
    }
  });
});

describe("sandbox", () => {
  withConfig({ LINKEDIN_CLIENT_ID: undefined, LINKEDIN_CLIENT_SECRET: undefined, X_CLIENT_ID: undefined, X_CLIENT_SECRET: undefined });

  it("records each thread part as a sandbox post replying to the one before, with its images; the page's thread is in order", async () => {
    const u = await makeUser({ publishing: true });
    const img = await image(u, "Sandbox picture");
    const t = await thread(u, 3, { 2: [img.url] });
    const res = await publishNow(u, "tweet", t.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = await (await db()).select().from(sandboxPosts).where(eq(sandboxPosts.draftId, t.id));
    expect(rows.sort((a, b) => a.part - b.part).map((p) => [p.part, p.text])).toEqual(t.texts.map((x, i) => [i, x]));
    expect(res.body.url).toBe(`${config().origin}/sandbox/micro/${rows[0].id}`);
    expect(rows[1]).toMatchObject({ inReplyTo: rows[0].id, mediaIds: [img.id] });
    expect(rows[2].inReplyTo).toBe(rows[1].id);
    // Opened at its last part, the page shows the whole thread from the first part.
    const last = await findSandboxPost(await db(), "micro", rows[2].id);
    const shown = await sandboxThread(await db(), last!);
    expect(shown.map((p) => p.text)).toEqual(t.texts);
    expect(shown[1].media).toEqual([expect.objectContaining({ id: img.id, altText: "Sandbox picture" })]);
  });

  it("shows a post's document with its title and page count", async () => {
    const u = await makeUser({ publishing: true });
    const doc = await pdf(u, 7);
    const d = await draft(u, "post", `Sandbox deck ${randomUUID()}`);
    await set("post", d.id, { documentUrl: doc.url, documentTitle: "Seven pages" });
    const res = await publishNow(u, "post", d.id);
    expect(res.status).toBe(200);
    const id = String(res.body.url).split("/").pop()!;
    const post = await findSandboxPost(await db(), "pronet", id);
    const [shown] = await sandboxThread(await db(), post!);
    expect(shown).toMatchObject({ documentTitle: "Seven pages", mediaIds: [doc.id] });
    expect(shown.media[0]).toMatchObject({ id: doc.id, pages: 7 });
  });

  it("another user's media id in a draft fails the publish, naming it as missing", async () => {
    const owner = await makeUser({ publishing: true });
    const other = await makeUser({ publishing: true });
    const theirs = await image(other);
    const d = await draft(owner, "post", `Not mine ${randomUUID()}`);
    await set("post", d.id, { imageUrl: theirs.url, imageUrls: [theirs.url] });
    expectError(await publishNow(owner, "post", d.id), 422, "action_failed");
    const r = await row("post", d.id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toContain("no longer exist");
  });
});
