import http from "node:http";
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import { authAccounts } from "@/drizzle/schema";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerContext, resolveUnknown } from "@/lib/domain/owner/owner";
import { retryFirstComment } from "@/lib/domain/publishing/first-comment";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { scheduleContentOp } from "@/lib/operations/publishing/schedule-content";
import { call, expectError, expectOk } from "../helpers/api";
import { connectedOwner, withBluesky, type BlueskyAccount, type BlueskyOwner, type PdsProxy, type StoredRecord } from "../helpers/bluesky";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { png, upload } from "../helpers/media";
import { freePort } from "../helpers/net";
import { approved, inSeconds, row } from "../helpers/publishing";

// Publishing to Bluesky, against a real PDS: the records read back carry the text, facets at
// their UTF-8 byte offsets, blobs with alt text and aspect ratio, link cards and reply
// references; and a send repeated after an unknown outcome creates nothing twice.

withDatabase();
withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const bluesky = withBluesky();

/** A page with Open Graph tags and its picture, on loopback (the service runs on loopback in tests, so it may read it). */
let site = "";
let server: http.Server | undefined;
beforeAll(async () => {
  const cover = await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#226644" } })
    .png()
    .toBuffer();
  server = http.createServer((req, res) => {
    if (req.url === "/article")
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<!doctype html><html><head><title>Fallback</title><meta property="og:title" content="Shipping &amp; learning">` +
            `<meta name="description" content="Plain description"><meta property="og:description" content="What we learned in a year">` +
            `<meta property="og:image" content="/cover.png"></head><body>Hi</body></html>`,
        );
    if (req.url === "/moved") return void res.writeHead(301, { location: "/article" }).end();
    if (req.url === "/cover.png") return void res.writeHead(200, { "content-type": "image/png" }).end(cover);
    res.writeHead(404).end();
  });
  const port = await freePort();
  await new Promise<void>((r) => server!.listen(port, "127.0.0.1", r));
  site = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

type Owner = BlueskyOwner;
const owner = (name: string) => connectedOwner(bluesky.net, name);

/** The account's posts, oldest first. */
const posts = async (a: BlueskyAccount) => (await bluesky.net.records(a.did)).reverse();
const byText = (records: StoredRecord[], text: string) => records.filter((r) => r.value.text === text);
const ref = (r: StoredRecord) => ({ uri: r.uri, cid: r.cid });
/** Where `part` starts and ends in `text`, in bytes of UTF-8. */
const bytesOf = (text: string, part: string) => {
  const at = text.indexOf(part);
  expect(at).toBeGreaterThanOrEqual(0);
  const byteStart = Buffer.byteLength(text.slice(0, at));
  return { byteStart, byteEnd: byteStart + Buffer.byteLength(part) };
};

async function tweet(o: Owner, body: Record<string, unknown>) {
  return expectOk(await call("create_draft", { type: "tweet", account_id: o.accountId, ...body }, { token: o.u.token }), createDraftOp.output) as {
    id: string;
  };
}

/** The account's calls through a proxy that counts them (and can lose an answer). */
async function throughProxy(o: Owner): Promise<PdsProxy> {
  const proxy = await bluesky.net.proxy();
  await (await db()).update(authAccounts).set({ serviceUrl: proxy.url }).where(eq(authAccounts.providerAccountId, o.a.did));
  return proxy;
}

describe("publishing to Bluesky", () => {
  it("posts a thread with a link, a mention and a hashtag, four described images, a link card and a first comment, as the records read back show", async () => {
    const o = await owner("alice");
    const bob = await bluesky.net.account("bob");
    // Four images with alt text; the last one, noise, is larger than the 1,000,000 bytes a blob may have.
    const noise = await sharp(randomBytes(800 * 700 * 3), { raw: { width: 800, height: 700, channels: 3 } })
      .png()
      .toBuffer();
    expect(noise.length).toBeGreaterThan(1_000_000);
    const images = [
      await upload(o.u, await png(120, 80), "image/png", { alt_text: "A wide blue box" }),
      await upload(o.u, await png(80, 120), "image/png", { alt_text: "A tall blue box" }),
      await upload(o.u, await png(100, 100), "image/png"), // no alt text: sent as an empty one, as the lexicon requires one
      await upload(o.u, noise, "image/png", { alt_text: "Static, like an old television" }),
    ];
    // An emoji of four code points, a letter with a combining accent (none is precomposed), and e + acute (NFC makes é).
    const body = `Cafe\u0301 q\u0307 👩🏽‍💻 launch: https://example.com/launch?utm=1 with @${bob.handle} #BuildInPublic 🚀`;
    const second = `Notes from the year 📝 ${site}/moved`;
    const third = `Thanks @nobody-${randomUUID().slice(0, 8)}.test, and see ${site}/missing 🙏`;
    const d = await tweet(o, { body, image_urls: images.map((i) => i.url), thread: [second, third], first_comment: "Questions welcome 💬 #AMA" });

    const out = expectOk(await approved(o.u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
    const [p1, p2, p3, comment] = await posts(o.a);
    expect(out).toEqual({ platform: "micro", platform_post_id: p1.uri, url: `https://bsky.app/profile/${o.a.did}/post/${p1.uri.split("/").pop()}` });

    // Part 1: its text as sent (NFC), facets at their byte offsets, four blobs with their alt texts.
    const text = body.normalize("NFC");
    expect(text).not.toBe(body);
    expect(p1.value.text).toBe(text);
    expect(p1.value.facets).toEqual([
      {
        index: bytesOf(text, "https://example.com/launch?utm=1"),
        features: [{ $type: "app.bsky.richtext.facet#link", uri: "https://example.com/launch?utm=1" }],
      },
      { index: bytesOf(text, `@${bob.handle}`), features: [{ $type: "app.bsky.richtext.facet#mention", did: bob.did }] },
      { index: bytesOf(text, "#BuildInPublic"), features: [{ $type: "app.bsky.richtext.facet#tag", tag: "BuildInPublic" }] },
    ]);
    expect(p1.value.reply).toBeUndefined();
    const embed = p1.value.embed as {
      $type: string;
      images: { alt: string; aspectRatio: { width: number; height: number }; image: { ref: { $link: string }; size: number; mimeType: string } }[];
    };
    expect(embed.$type).toBe("app.bsky.embed.images");
    expect(embed.images.map((i) => i.alt)).toEqual(["A wide blue box", "A tall blue box", "", "Static, like an old television"]);
    expect(embed.images.map((i) => i.aspectRatio)).toEqual([
      { width: 120, height: 80 },
      { width: 80, height: 120 },
      { width: 100, height: 100 },
      expect.anything(),
    ]);
    const big = embed.images[3];
    expect(big.aspectRatio.width / big.aspectRatio.height).toBeCloseTo(800 / 700, 2);
    expect(big.image.mimeType).toBe("image/jpeg");
    // Each blob is within the lexicon's size and kept by the PDS (referenced by the record: no longer temporary).
    const listed = await fetch(`${bluesky.net.pdsUrl}/xrpc/com.atproto.sync.listBlobs?did=${o.a.did}`).then((r) => r.json() as Promise<{ cids: string[] }>);
    for (const i of embed.images) {
      expect(i.image.size).toBeLessThanOrEqual(1_000_000);
      expect(listed.cids).toContain(i.image.ref.$link);
    }

    // Part 2: a reply to part 1, with a card read from the page's Open Graph tags (through its redirect).
    expect(p2.value.text).toBe(second);
    expect(p2.value.reply).toEqual({ root: ref(p1), parent: ref(p1) });
    const card = (p2.value.embed as { $type: string; external: { uri: string; title: string; description: string; thumb?: { size: number } } }).external;
    expect(p2.value.embed).toMatchObject({ $type: "app.bsky.embed.external" });
    expect(card).toMatchObject({ uri: `${site}/moved`, title: "Shipping & learning", description: "What we learned in a year" });
    expect(card.thumb!.size).toBeGreaterThan(0);
    expect(p2.value.facets).toEqual([{ index: bytesOf(second, `${site}/moved`), features: [{ $type: "app.bsky.richtext.facet#link", uri: `${site}/moved` }] }]);

    // Part 3: a mention nobody answers for stays text; a page that cannot be read gives no card.
    expect(p3.value.reply).toEqual({ root: ref(p1), parent: ref(p2) });
    expect(p3.value.facets).toEqual([
      { index: bytesOf(third, `${site}/missing`), features: [{ $type: "app.bsky.richtext.facet#link", uri: `${site}/missing` }] },
    ]);
    expect(p3.value.embed).toBeUndefined();

    // The first comment: a reply to the thread's last part.
    expect(comment.value).toMatchObject({ text: "Questions welcome 💬 #AMA", reply: { root: ref(p1), parent: ref(p3) } });
    expect(comment.value.facets).toEqual([
      { index: bytesOf("Questions welcome 💬 #AMA", "#AMA"), features: [{ $type: "app.bsky.richtext.facet#tag", tag: "AMA" }] },
    ]);
    expect(await posts(o.a)).toHaveLength(4);

    const r = await row("tweet", d.id);
    expect(r).toMatchObject({ status: "published", platformPostId: p1.uri, firstCommentStatus: "posted", firstCommentPostId: comment.uri });
    // The keys were chosen and stored before each part went out.
    expect(r.publishProgress!.keys).toEqual([p1, p2, p3].map((p) => p.uri.split("/").pop()));
  });

  it("a thread whose second part's answer was lost, settled as not posted and published again, creates nothing twice", async () => {
    const o = await owner("carol");
    const proxy = await throughProxy(o);
    try {
      const parts = [`One ${randomUUID()}`, `Two ${randomUUID()}`, `Three ${randomUUID()}`];
      const d = await tweet(o, { body: parts[0], thread: parts.slice(1) });
      proxy.loseAnswer("com.atproto.repo.createRecord", 2);
      const lost = await approved(o.u, "publish_now", { type: "tweet", id: d.id });
      expectError(lost, 422, "action_failed");
      expect(lost.body.error.message).toMatch(/^The platform did not confirm the post: posted part 1 of 3; part 2 failed: The connection to Bluesky broke/);
      expect(await row("tweet", d.id)).toMatchObject({ status: "unknown" });
      expect((await posts(o.a)).map((p) => p.value.text)).toEqual(parts.slice(0, 2)); // part 2 did go out

      // The owner looks at the wrong place and says it did not go out; publishing again must still not post part 2 twice.
      const ctx = ownerContext(await db(), { id: o.u.id, ...(await getProfile(await db(), o.u.id))! }, ports());
      await resolveUnknown(ctx, { type: "tweet", id: d.id, posted: false });
      proxy.calls.length = 0;
      expectOk(await approved(o.u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
      expect(proxy.calls.filter((c) => c.startsWith("com.atproto.repo."))).toEqual([
        "com.atproto.repo.getRecord", // part 2's key is taken: read, it is this part
        "com.atproto.repo.getRecord", // part 3 replies to it: its CID
        "com.atproto.repo.createRecord", // part 3, once
      ]);
      const all = await posts(o.a);
      expect(all.map((p) => p.value.text)).toEqual(parts);
      expect(all[2].value.reply).toEqual({ root: ref(all[0]), parent: ref(all[1]) });
      expect(await row("tweet", d.id)).toMatchObject({ status: "published", platformPostId: all[0].uri });
    } finally {
      await proxy.close();
    }
  });

  it("a first comment whose answer was lost, tried again by the owner, is one reply", async () => {
    const o = await owner("dan");
    const proxy = await throughProxy(o);
    try {
      const d = await tweet(o, { body: `Post ${randomUUID()}`, first_comment: "The link: https://example.com" });
      proxy.loseAnswer("com.atproto.repo.createRecord", 2);
      expectOk(await approved(o.u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
      expect(await row("tweet", d.id)).toMatchObject({ status: "published", firstCommentStatus: "unknown" });
      expect(await retryFirstComment(await db(), o.u.id, "tweet", d.id, ports())).toBe("posted");
      const [post, reply, ...more] = await posts(o.a);
      expect(more).toEqual([]);
      expect(reply.value).toMatchObject({ text: "The link: https://example.com", reply: { root: ref(post), parent: ref(post) } });
      expect(await row("tweet", d.id)).toMatchObject({ firstCommentStatus: "posted", firstCommentPostId: reply.uri });
    } finally {
      await proxy.close();
    }
  });

  it("a rate limit is retried when it resets; a record the PDS refuses fails, naming Bluesky's reason; nothing is posted", async () => {
    const o = await owner("erin");
    const proxy = await throughProxy(o);
    try {
      const limited = await tweet(o, { body: `Limited ${randomUUID()}` });
      const reset = Math.floor(Date.now() / 1000) + 600;
      proxy.answer("com.atproto.repo.createRecord", 429, { error: "RateLimitExceeded", message: "Rate Limit Exceeded" }, { "ratelimit-reset": String(reset) });
      const res = await approved(o.u, "publish_now", { type: "tweet", id: limited.id });
      expectError(res, 422, "action_failed");
      expect(res.body.error.message).toContain(`Bluesky rate limit reached (429); it resets at ${new Date(reset * 1000).toISOString()}`);
      expect(await row("tweet", limited.id)).toMatchObject({ status: "scheduled", nextAttemptAt: new Date(reset * 1000) });

      const refused = await tweet(o, { body: `Refused ${randomUUID()}` });
      proxy.answer("com.atproto.repo.createRecord", 400, { error: "InvalidRequest", message: "Invalid app.bsky.feed.post record" });
      const no = await approved(o.u, "publish_now", { type: "tweet", id: refused.id });
      expectError(no, 422, "action_failed");
      expect(no.body.error.message).toBe("Publishing failed: Bluesky refused the post (400 InvalidRequest: Invalid app.bsky.feed.post record).");
      expect(await row("tweet", refused.id)).toMatchObject({ status: "failed" });
      expect(await posts(o.a)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("the scheduler publishes a scheduled post to the account it was approved for", async () => {
    const o = await owner("fay");
    const text = `Scheduled ${randomUUID()} #later`;
    const d = await tweet(o, { body: text });
    const at = inSeconds(120);
    expectOk(await approved(o.u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    await runDue(await db(), { clock: () => at });
    const [p] = await posts(o.a);
    expect(p.value).toMatchObject({ text, facets: [{ index: bytesOf(text, "#later"), features: [{ $type: "app.bsky.richtext.facet#tag", tag: "later" }] }] });
    expect(await row("tweet", d.id)).toMatchObject({ status: "published", platformPostId: p.uri });
  });
});
