import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { accountHealth } from "@/lib/domain/accounts/health";
import { storePlatformTokens } from "@/lib/domain/owner/sign-in";
import { checkConnections } from "@/lib/adapters/platforms/check";
import { ENDPOINTS, signInScopes } from "@/lib/domain/networks/scopes";
import { runDue } from "@/lib/adapters/scheduler";
import { authAccounts, tweetDrafts, users } from "@/drizzle/schema";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { configured, reconfigure } from "../helpers/env";
import { computedLinkedInVersion } from "@/lib/adapters/platforms/linkedin-version";
import { sniff } from "../helpers/fakes/state";
import { xContract } from "../helpers/fakes/x-contract";
import { gif, pdf, png, upload } from "../helpers/media";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, row } from "../helpers/publishing";

// Publishing as X and LinkedIn publish their contract: X's requests held to its OpenAPI
// document (paths, scopes, bodies), LinkedIn's to its documented rules, through the real
// adapters, from the API a program calls. The fixture fails a test whose requests departed
// from the contract in any way.

withDatabase();
const platforms = withFakePlatforms();
const { connect } = platforms;
const fake = () => platforms.fake;
const HAS_DOC = xContract() !== null;

/** X's connection as it was before media.write was asked for. */
const OLD_X_SCOPES = ["tweet.read", "tweet.write", "users.read", "offline.access"];

async function publisher(xScopes?: string[]) {
  const u = await makeUser({ publishing: true });
  const li = await connect(u, "linkedin");
  const x = await connect(u, "twitter", { scopes: xScopes });
  return { u, author: `urn:li:person:${li.accountId}`, x };
}
const oneFrameGif = () =>
  sharp({ create: { width: 10, height: 10, channels: 3, background: "#336699" } })
    .gif()
    .toBuffer();
const createDraft = (u: TestUser, args: Record<string, unknown>) => call("create_draft", args, { token: u.token });
async function tweetWith(u: TestUser, urls: string[], body = `Tweet ${randomUUID()}`) {
  const res = await createDraft(u, { type: "tweet", body, image_urls: urls });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}
const publishNow = (u: TestUser, type: "post" | "tweet", id: string) => approved(u, "publish_now", { type, id });
const uploadOf = (id: string) => fake().uploads.get(id)!;

describe.skipIf(!HAS_DOC)("the fake of X is X's OpenAPI document", () => {
  it("refuses a path it does not define, a body its schema refuses and a token without the operation's scopes", async () => {
    const send = (path: string, token: string, body: unknown) =>
      fetch(`${fake().url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    fake().grant("x", "probe-token", { scopes: OLD_X_SCOPES });
    expect((await send("/2/statuses/update", "probe-token", { text: "v1.1 is gone" })).status).toBe(404);
    expect((await send("/2/tweets", "probe-token", { text: "hi", media: { media_ids: ["not-digits"] } })).status).toBe(400);
    expect((await send("/2/tweets", "probe-token", { text: "hi", unknown_field: true })).status).toBe(400);
    const seen = fake().badRequests.splice(0);
    expect(seen).toHaveLength(3);
    expect(seen[1]).toContain("pattern");
    expect(seen[2]).toContain("additional properties");
    const denied = await send("/2/media/metadata", "probe-token", { id: "123", metadata: { alt_text: { text: "x" } } });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ detail: "Missing scope: media.write" });
    expect(fake().refusals.splice(0)).toEqual(["createMediaMetadata: missing media.write"]);
  });

  it("the scope table names exactly the scopes of each endpoint's operation in the document", () => {
    for (const e of Object.values(ENDPOINTS.x)) {
      const found = xContract()!.find(e.method, e.path.replace("{id}", "1"));
      expect(found, `${e.method} ${e.path}`).not.toBeNull();
      expect([...e.scopes].sort(), `${e.method} ${e.path}`).toEqual([...found!.op.scopes!].sort());
    }
    expect(signInScopes("x")).toEqual(expect.arrayContaining(["media.write", "tweet.write", "offline.access"]));
  });
});

describe("X media as X documents it", () => {
  it("a tweet with four described images: one upload each as tweet_image, alt text through media metadata", async () => {
    const { u } = await publisher();
    const files = await Promise.all([1, 2, 3, 4].map(async (k) => upload(u, await png(10 + k, 8), "image/png", { alt_text: `Chart ${k}` })));
    const id = await tweetWith(
      u,
      files.map((f) => f.url),
    );
    const res = await publishNow(u, "tweet", id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tweet = fake().created.x.find((t) => t.id === res.body.platform_post_id)!;
    const ids = (tweet.body.media as { media_ids: string[] }).media_ids;
    expect(ids.map((m) => [uploadOf(m).category, uploadOf(m).altText])).toEqual([1, 2, 3, 4].map((k) => ["tweet_image", `Chart ${k}`]));
  });

  it("an animated GIF goes through the chunked upload, and the tweet waits until X has processed it", async () => {
    const { u } = await publisher();
    fake().processingPolls.x = 2;
    const g = await upload(u, await gif(), "image/gif", { alt_text: "A blinking light" });
    const id = await tweetWith(u, [g.url]);
    const res = await publishNow(u, "tweet", id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tweet = fake().created.x.find((t) => t.id === res.body.platform_post_id)!;
    const [mediaId] = (tweet.body.media as { media_ids: string[] }).media_ids;
    expect(uploadOf(mediaId)).toMatchObject({ category: "tweet_gif", state: "ready", altText: "A blinking light" });
    const steps = fake().mediaRequests.filter((r) => r.path.includes(mediaId) || r.path === "/2/media/upload/initialize" || r.path === "/2/media/upload");
    expect(steps.map((r) => `${r.method} ${r.path.replace(mediaId, "{id}")}`)).toEqual(
      expect.arrayContaining([
        "POST /2/media/upload/initialize",
        "POST /2/media/upload/{id}/append",
        "POST /2/media/upload/{id}/finalize",
        "GET /2/media/upload",
      ]),
    );
  });

  it("a GIF X fails to process fails the draft with X's reason, and nothing is posted", async () => {
    const { u } = await publisher();
    const g = await upload(u, await gif(), "image/gif");
    const body = `Broken GIF ${randomUUID()}`;
    const id = await tweetWith(u, [g.url], body);
    fake().misbehave("x-upload", "processing_failed");
    expectError(await publishNow(u, "tweet", id), 422, "action_failed");
    expect((await row("tweet", id)).failureReason).toContain("X could not process the GIF");
    expect(fake().count("x", body)).toBe(0);
  });

  it("a draft refuses an animated GIF beside other images, in the tweet and in a thread part; a one-frame GIF is an image", async () => {
    const { u } = await publisher();
    const [g, p, still] = [
      await upload(u, await gif(), "image/gif"),
      await upload(u, await png(), "image/png"),
      await upload(u, await oneFrameGif(), "image/gif"),
    ];
    const mixed = await createDraft(u, { type: "tweet", body: "Mixed", image_urls: [p.url, g.url] });
    expectError(mixed, 400, "invalid_request");
    expect(mixed.body.error.details).toEqual([{ path: "image_urls.1", message: expect.stringContaining("animated GIF goes alone") }]);
    const inThread = await createDraft(u, { type: "tweet", body: "Thread", thread: ["fine", { text: "mixed", image_urls: [g.url, p.url] }] });
    expectError(inThread, 400, "invalid_request");
    expect(inThread.body.error.details[0].path).toBe("thread.1.image_urls.0");
    expect((await createDraft(u, { type: "tweet", body: "Alone", image_urls: [g.url] })).status).toBe(200);
    const stills = await createDraft(u, { type: "tweet", body: "Stills", image_urls: [still.url, p.url] });
    expect(stills.status, JSON.stringify(stills.body)).toBe(200);
    const res = await publishNow(u, "tweet", stills.body.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it("a thread with images: each part's images uploaded, each part replying to the one before", async () => {
    const { u } = await publisher();
    const [a, b] = [await upload(u, await png(20, 10), "image/png", { alt_text: "First" }), await upload(u, await gif(), "image/gif", { alt_text: "Second" })];
    const res0 = await createDraft(u, {
      type: "tweet",
      body: `Thread ${randomUUID()}`,
      image_urls: [a.url],
      thread: [{ text: "part two", image_urls: [b.url] }, "part three"],
    });
    const res = await publishNow(u, "tweet", res0.body.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [one, two, three] = fake().created.x.slice(-3);
    expect(uploadOf((one.body.media as { media_ids: string[] }).media_ids[0]).altText).toBe("First");
    expect(uploadOf((two.body.media as { media_ids: string[] }).media_ids[0]).category).toBe("tweet_gif");
    expect([two.body.reply, three.body.reply]).toEqual([{ in_reply_to_tweet_id: one.id }, { in_reply_to_tweet_id: two.id }]);
  });
});

describe("a connection made before media.write was asked for", () => {
  it("is refused up front with the reconnect hint, shown in account health, posts text still, and posts images once reconnected", async () => {
    const { u, x } = await publisher(OLD_X_SCOPES);
    const img = await upload(u, await png(), "image/png");
    const id = await tweetWith(u, [img.url]);
    const requests = fake().mediaRequests.length + fake().requests.length;
    for (const res of [
      await call("schedule_content", { type: "tweet", id, scheduled_for: new Date(Date.now() + 1800_000).toISOString() }, { token: u.token }),
      await approved(u, "publish_now", { type: "tweet", id }),
    ]) {
      expectError(res, 422, "action_failed");
      expect(res.body.error.message).toContain("media.write");
      expect(res.body.error.hint).toContain("Reconnect X in Settings > Connections");
    }
    expect(fake().mediaRequests.length + fake().requests.length).toBe(requests); // nothing was sent
    expect((await row("tweet", id)).status).toBe("draft");
    const [h] = (await accountHealth(await db(), u.id, ports())).filter((a) => a.provider === "twitter");
    expect(h).toMatchObject({ missing: ["media.write"], toPost: "images" });

    // Text alone needs no media.write.
    const text = await tweetWith(u, []);
    expect((await publishNow(u, "tweet", text)).status).toBe(200);

    // Signing in with X again stores the new grant (as the sign-in event does).
    const access = `x-reconnected-${randomUUID()}`;
    fake().grant("x", access, { member: x.accountId });
    await storePlatformTokens(
      await db(),
      { provider: "twitter", providerAccountId: x.accountId, access_token: access, scope: signInScopes("x").join(" ") },
      {},
    );
    const res = await publishNow(u, "tweet", id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(fake().refusals).toEqual([]);
  });
});

describe("X's 24-hour cap", () => {
  async function dueTweet(u: TestUser, minutesAgo = 1) {
    const id = await tweetWith(u, []);
    const t = Date.now() - minutesAgo * 60_000;
    await (
      await db()
    )
      .update(tweetDrafts)
      .set({ status: "scheduled", scheduledFor: new Date(t), approvedContentHash: null })
      .where(eq(tweetDrafts.id, id));
    return id;
  }

  it("a 429 of the daily cap is not retried before the reset; within the lateness window the tweet goes out once after it", async () => {
    const { u } = await publisher();
    const id = await dueTweet(u);
    fake().misbehave("x", "429daily");
    await configured({ SCHEDULE_MAX_LATENESS_SECONDS: String(6 * 3600) }, async () => {
      await runDue(await db());
      const r = await row("tweet", id);
      expect(r.status).toBe("scheduled");
      const reset = r.nextAttemptAt!.getTime();
      expect(reset).toBeGreaterThan(Date.now() + 4.9 * 3600_000); // the fake's cap resets in five hours
      expect(r.firstAttemptAt).toBeNull(); // a window of its own from the reset
      const before = fake().requests.length;
      await runDue(await db(), { clock: () => new Date(reset - 60_000) });
      await runDue(await db(), { clock: () => new Date(Date.now() + 15 * 60_000) }); // X's 15-minute window is no reason
      expect(fake().requests.length).toBe(before);
      await runDue(await db(), { clock: () => new Date(reset + 1000) });
      expect((await row("tweet", id)).status).toBe("published");
      expect(fake().count("x", r.body)).toBe(1);
    });
  });

  it("a reset after the lateness window fails the tweet, saying when X allows posting again in the owner's time zone", async () => {
    const { u } = await publisher();
    await (await db()).update(users).set({ timezone: "Asia/Tokyo" }).where(eq(users.id, u.id));
    const id = await dueTweet(u);
    fake().misbehave("x", "429daily");
    await runDue(await db());
    const r = await row("tweet", id);
    expect(r.status).toBe("failed");
    expect(r.failureReason).toMatch(/X allows posting again at .+GMT\+9/);
  });

  it("account health shows how many posts X still takes today", async () => {
    const { u } = await publisher();
    fake().xDailyRemaining = 7;
    expect((await publishNow(u, "tweet", await tweetWith(u, []))).status).toBe(200);
    const [h] = (await accountHealth(await db(), u.id, ports())).filter((a) => a.provider === "twitter");
    expect(h.allowance).toMatchObject({ limit: 100, remaining: 6 });
    fake().xDailyRemaining = 100_000;
  });
});

describe("LinkedIn content as LinkedIn reads it", () => {
  it("a post full of reserved characters, a link with underscores and parentheses, and hashtags reads exactly as written, hashtags clickable", async () => {
    const { u, author } = await publisher();
    const text = [
      "Shipping v2 (finally!) [notes] {beta} <tags> *bold* _under_ ~tilde~ @team | pipes \\ backslash.",
      "Read https://en.wikipedia.org/wiki/Foo_(bar)_baz?x=1#section first.",
      `C# and page#anchor stay text; ##double, #devops #AI2026 #日本語 are tags. ${randomUUID()}`,
    ].join("\n\n");
    const res0 = await createDraft(u, { type: "post", body: text });
    const res = await publishNow(u, "post", res0.body.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const post = fake().created.linkedin.find((p) => p.body.author === author)!;
    expect(post.rendered).toMatchObject({ text, cut: false, hashtags: ["double", "devops", "AI2026", "日本語"] });
  });

  it("a WebP image reaches LinkedIn as JPEG (PNG when it has transparency)", async () => {
    const { u, author } = await publisher();
    const opaque = await upload(
      u,
      await sharp({ create: { width: 16, height: 9, channels: 3, background: "#224466" } })
        .webp()
        .toBuffer(),
      "image/webp",
    );
    const clear = await upload(
      u,
      await sharp({ create: { width: 16, height: 9, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
        .webp()
        .toBuffer(),
      "image/webp",
    );
    const res0 = await createDraft(u, { type: "post", body: `WebP ${randomUUID()}`, image_urls: [opaque.url, clear.url] });
    expect((await publishNow(u, "post", res0.body.id)).status).toBe(200);
    const post = fake().created.linkedin.find((p) => p.body.author === author)!;
    const images = (post.body.content as { multiImage: { images: { id: string }[] } }).multiImage.images.map((i) => uploadOf(i.id));
    expect(images.map((i) => [sniff(i.bytes!), i.contentType])).toEqual([
      ["jpeg", "image/jpeg"],
      ["png", "image/png"],
    ]);
  });

  it("a document is posted once LinkedIn reports it available", async () => {
    const { u, author } = await publisher();
    fake().processingPolls.linkedin = 3;
    const doc = await upload(u, await pdf(3), "application/pdf");
    const res0 = await createDraft(u, { type: "post", body: `Deck ${randomUUID()}`, document_url: doc.url, document_title: "Q3" });
    const res = await publishNow(u, "post", res0.body.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const post = fake().created.linkedin.find((p) => p.body.author === author)!;
    const urn = (post.body.content as { media: { id: string } }).media.id;
    expect(uploadOf(urn).state).toBe("ready");
    const reads = fake().mediaRequests.filter((r) => r.method === "GET" && r.path === `/rest/documents/${encodeURIComponent(urn)}`);
    expect(reads.length).toBeGreaterThanOrEqual(3);
    fake().processingPolls.linkedin = 2;
  });

  it("a LinkedIn connection without a refresh token (LinkedIn gives most apps none) is warned about a week before it ends", async () => {
    const u = await makeUser({ publishing: true });
    const { accountId } = await connect(u, "linkedin");
    const ends = Math.floor(Date.now() / 1000) + 6 * 86400;
    await (await db()).update(authAccounts).set({ refresh_token: null, expires_at: ends }).where(eq(authAccounts.providerAccountId, accountId));
    const [h] = await accountHealth(await db(), u.id, ports());
    expect(h).toMatchObject({ provider: "linkedin", canRefresh: false, expiring: true, until: new Date(ends * 1000) });
  });
});

describe("Check connection", () => {
  it("reads each network once as the account and reports reachability, permissions, expiry and renewal", async () => {
    const { u } = await publisher(OLD_X_SCOPES);
    const checks = await checkConnections(await db(), u.id);
    expect(
      checks.map((c) => [c.network, c.reachable, c.missing]),
      JSON.stringify(checks),
    ).toEqual([
      ["LinkedIn", true, []],
      ["X", true, ["media.write"]],
    ]);
    expect(checks[1].detail).toBe("GET /2/users/me answered as @wendy_w");
    expect(checks[0]).toMatchObject({ canRenew: false, expiresAt: expect.any(String) });
    // The LinkedIn-Version its requests carry: the calendar's, unless LINKEDIN_VERSION pins one.
    expect(checks[0].apiVersion).toBe(`${computedLinkedInVersion(new Date())} (follows the calendar)`);
    expect(checks[1].apiVersion).toBeNull();
    const pinned = reconfigure({ LINKEDIN_VERSION: "202601" });
    try {
      expect((await checkConnections(await db(), u.id))[0].apiVersion).toBe("202601 (pinned by LINKEDIN_VERSION)");
    } finally {
      pinned();
    }

    const broken = await makeUser({ publishing: true });
    await connect(broken, "twitter", { valid: false });
    const [bad] = await checkConnections(await db(), broken.id);
    expect(bad).toMatchObject({ network: "X", reachable: false });
    expect(bad.detail).toContain("reconnect X");
  });
});
