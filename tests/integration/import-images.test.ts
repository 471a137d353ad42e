import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { replacePorts } from "@/lib/adapters/ports";
import { outsideImages } from "@/lib/adapters/images/outside";
import { config } from "@/lib/core/config";
import { media, postDrafts, tweetDrafts, draftImports } from "@/drizzle/schema";
import { planHash, planImport } from "@/lib/domain/drafts/import";
import { MAX_OUTSIDE_IMAGES } from "@/lib/domain/drafts/import-images";
import { ownerContext } from "@/lib/domain/owner/owner";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ports } from "@/lib/adapters/ports";
import { parseRows } from "@/lib/operations/drafts/import-drafts";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { serve } from "../helpers/http-server";
import { gif, png, upload } from "../helpers/media";
import { asOwner } from "../helpers/owner";
import { withFakePlatforms } from "../helpers/platform-fixture";

// An import's images elsewhere: fetched through the SSRF-checked request (the images port),
// checked and stored as upload_media stores a file, attached in their place with the owner's
// description. An address that cannot be used names its row, and the import stores nothing:
// no draft, and no image it had already fetched.

withDatabase();
const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });

let site: { url: string; close: () => Promise<void> };
let blue: Buffer;
let anim: Buffer;
const asked: string[] = [];

beforeAll(async () => {
  blue = await png(40, 21);
  anim = await gif(10, 10);
  site = await serve(async (req) => {
    const path = new URL(req.url).pathname;
    asked.push(path);
    if (path.startsWith("/blue")) return new Response(new Uint8Array(blue), { headers: { "content-type": "image/png" } });
    if (path === "/anim.gif") return new Response(new Uint8Array(anim), { headers: { "content-type": "image/gif" } });
    if (path === "/hop") return new Response(null, { status: 302, headers: { location: "/blue.png" } });
    if (path === "/to-metadata") return new Response(null, { status: 302, headers: { location: "https://169.254.169.254/latest/meta-data/" } });
    if (path === "/to-private") return new Response(null, { status: 302, headers: { location: "https://10.1.2.3/blue.png" } });
    if (path === "/page.png") return new Response("<!doctype html><title>Not a picture</title>", { headers: { "content-type": "image/png" } });
    return new Response("gone", { status: 404 });
  });
});
afterAll(() => site.close());
afterEach(() => {
  replacePorts();
  asked.splice(0);
});

const soon = () => new Date(Date.now() + 2 * 86400_000).toISOString();

async function stored(u: TestUser) {
  const d = await db();
  const count = async (t: typeof postDrafts | typeof tweetDrafts | typeof draftImports | typeof media) =>
    (await d.select({ id: t.id }).from(t).where(eq(t.userId, u.id))).length;
  return { posts: await count(postDrafts), tweets: await count(tweetDrafts), imports: await count(draftImports), media: await count(media) };
}
const nothing = { posts: 0, tweets: 0, imports: 0, media: 0 };

const mediaOf = async (u: TestUser) => (await db()).select().from(media).where(eq(media.userId, u.id));

async function refused(u: TestUser, rows: Record<string, unknown>[]) {
  const res = await call("import_drafts", { rows }, { token: u.token });
  expectError(res, 400, "invalid_request");
  return res.body.error as { message: string; details: { path: string; message: string }[] };
}

describe("import_drafts with images elsewhere", () => {
  it("fetches the image, stores it as the owner's media and attaches it with its alt text (the owner's import)", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "linkedin", { refresh: `r-${randomUUID()}` });
    const image = `${site.url}/blue.png`;
    const rows = [{ network: "linkedin", text: "A picture from my site", scheduled_for: soon(), image_urls: [image] }];
    const alts = [{ url: image, alt: "A blue rectangle" }];
    const profile = (await getProfile(await db(), u.id))!;
    const parsed = parseRows(rows);
    const plan = await planImport(ownerContext(await db(), { id: u.id, ...profile }, ports()), parsed.rows, parsed.problems, { queue: true });
    expect(plan.problems).toEqual([]);
    // The preview fetches nothing: images are fetched once, when the owner confirms.
    expect(asked).toEqual([]);

    const done = await asOwner(u, "import_to_queue", { rows, alts }, { shown: planHash(plan.planned) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.refused, JSON.stringify(done.body)).toBeUndefined();
    expect(asked).toEqual(["/blue.png"]);
    const [m] = await mediaOf(u);
    expect(m).toMatchObject({ altText: "A blue rectangle", contentType: "image/png", width: 40, height: 21, filename: "blue.png" });
    const post = await call("fetch_item", { type: "post", id: done.body.drafts[0].id }, { token: u.token });
    expect(post.body).toMatchObject({ status: "scheduled", image_urls: [`${config().origin}/media/${m.id}`] });
    // Stored exactly as upload_media stores the same file (decoded, cleaned, encoded again).
    const same = await upload(u, blue, "image/png");
    const [direct] = (await mediaOf(u)).filter((x) => x.id === same.media_id);
    expect(Buffer.from(m.data).equals(Buffer.from(direct.data))).toBe(true);
  });

  it("over REST: follows a redirect, and fetches an address used twice once", async () => {
    const u = await makeUser({ publishing: true });
    const res = await call(
      "import_drafts",
      {
        rows: [
          { network: "linkedin", text: "Via a redirect", image_urls: [`${site.url}/hop`] },
          { network: "x", text: "The same picture", image_urls: [`${site.url}/hop`] },
          { network: "x", text: "A name with a stray %", image_urls: [`${site.url}/blue%zz.png`] },
        ],
      },
      { token: u.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asked.sort()).toEqual(["/blue%zz.png", "/blue.png", "/hop"]);
    // A post, and two tweets with the parent posts create_draft makes for them; one image for the first two.
    expect(await stored(u)).toEqual({ posts: 3, tweets: 2, imports: 1, media: 2 });
    const imagesOf = async (type: string, id: string) => (await call("fetch_item", { type, id }, { token: u.token })).body.image_urls as string[];
    const [post, tweet, other] = [
      await imagesOf("post", res.body.drafts[0].id),
      await imagesOf("tweet", res.body.drafts[1].id),
      await imagesOf("tweet", res.body.drafts[2].id),
    ];
    expect(tweet).toEqual(post);
    const byId = new Map((await mediaOf(u)).map((m) => [`${config().origin}/media/${m.id}`, m]));
    // Named after the address it was asked for; a stray % in it is kept as the name, cleaned.
    expect([byId.get(post[0])?.filename, byId.get(other[0])?.filename]).toEqual(["hop.png", expect.stringMatching(/^blue.*zz\.png$/)]);
  });

  it("over REST: each image described by the row's image_alts, in order; more descriptions than images refused", async () => {
    const u = await makeUser({ publishing: true });
    const res = await call(
      "import_drafts",
      {
        rows: [
          { network: "x", text: "Described", image_urls: [`${site.url}/blue.png`, `${site.url}/blue-2.png`], image_alts: ["A blue rectangle", "Another one"] },
        ],
      },
      { token: u.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await mediaOf(u)).map((m) => [m.filename, m.altText]).sort()).toEqual([
      ["blue-2.png", "Another one"],
      ["blue.png", "A blue rectangle"],
    ]);
    const wrong = await refused(u, [{ network: "x", text: "Too many", image_urls: [`${site.url}/blue.png`], image_alts: ["One", "Two"] }]);
    expect(wrong.details.map((d) => d.path)).toEqual(["rows.0.image_alts"]);
  });

  it("refuses an address that resolves to a private one when the service is public, and never connects", async () => {
    const u = await makeUser({ publishing: true });
    replacePorts({ images: outsideImages({ origin: () => "https://contentio.example", resolve: async () => [{ address: "10.0.0.7", family: 4 }] }) });
    const error = await refused(u, [
      { network: "linkedin", text: "Fine" },
      { network: "linkedin", text: "Inside", image_urls: ["https://images.example.test/a.png"] },
      { network: "x", text: "Loopback", image_urls: [`${site.url}/blue.png`] },
    ]);
    expect(error.message).toBe("Rows 2, 3 have problems; nothing was imported.");
    expect(error.details.map((d) => d.path)).toEqual(["rows.1.image_urls.0", "rows.2.image_urls.0"]);
    expect(error.details[0].message).toMatch(
      /^Row 2 \(image_urls\.0\): The image at https:\/\/images\.example\.test\/a\.png could not be used: refused: .*private/,
    );
    expect(error.details[1].message).toMatch(/^Row 3 .*could not be used: refused: the URL is not allowed/);
    expect(asked).toEqual([]);
    expect(await stored(u)).toEqual(nothing);
  });

  it("refuses a redirect to a private or metadata address", async () => {
    const u = await makeUser({ publishing: true });
    const error = await refused(u, [
      { network: "linkedin", text: "Metadata", image_urls: [`${site.url}/to-metadata`] },
      { network: "linkedin", text: "Private", image_urls: [`${site.url}/to-private`] },
    ]);
    expect(error.details.map((d) => d.message)).toEqual([
      `Row 1 (image_urls.0): The image at ${site.url}/to-metadata could not be used: refused: the URL is not allowed (https only, no private addresses)`,
      `Row 2 (image_urls.0): The image at ${site.url}/to-private could not be used: refused: the URL is not allowed (https only, no private addresses)`,
    ]);
    expect(await stored(u)).toEqual(nothing);
  });

  it("refuses an image past the upload limit without reading it all", async () => {
    const u = await makeUser({ publishing: true });
    const total = 64 * 1024 * 1024;
    let sent = 0;
    const big = http.createServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      const chunk = Buffer.concat([blue, Buffer.alloc(64 * 1024)]);
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) await new Promise((r) => (res.once("drain", r), res.once("close", r)));
      }
      res.end();
    });
    await new Promise<void>((r) => big.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(big.address() as AddressInfo).port}/huge.png`;
      const error = await refused(u, [
        { network: "linkedin", text: "Fine", image_urls: [`${site.url}/blue.png`] },
        { network: "linkedin", text: "Huge", image_urls: [url] },
      ]);
      expect(error.details).toEqual([
        { path: "rows.1.image_urls.0", message: `Row 2 (image_urls.0): The image at ${url} could not be used: the image is larger than 5 MB` },
      ]);
      expect(sent).toBeLessThan(total / 4);
      // The first row's image was fetched and stored, then removed with the refusal.
      expect(asked).toEqual(["/blue.png"]);
      expect(await stored(u)).toEqual(nothing);
    } finally {
      big.closeAllConnections();
      await new Promise((r) => big.close(r));
    }
  });

  it("refuses what is not an image, whatever it calls itself, and an address that answers 404", async () => {
    const u = await makeUser({ publishing: true });
    const error = await refused(u, [
      { network: "x", text: "A page", image_urls: [`${site.url}/page.png`] },
      { network: "x", text: "Gone", thread: [{ text: "Part two", image_urls: [`${site.url}/nothing.png`] }] },
    ]);
    expect(error.details).toEqual([
      {
        path: "rows.0.image_urls.0",
        message: `Row 1 (image_urls.0): The image at ${site.url}/page.png could not be used: it is not an image (PNG, JPEG, GIF or WebP)`,
      },
      {
        path: "rows.1.thread.0.image_urls.0",
        message: `Row 2 (thread.0.image_urls.0): The image at ${site.url}/nothing.png could not be used: it answered 404`,
      },
    ]);
    expect(await stored(u)).toEqual(nothing);
  });

  it("checks a tweet's fetched images as create_draft does: an animated GIF goes alone", async () => {
    const u = await makeUser({ publishing: true });
    const error = await refused(u, [{ network: "x", text: "Two", image_urls: [`${site.url}/anim.gif`, `${site.url}/blue.png`] }]);
    expect(error.details).toEqual([{ path: "rows.0.image_urls.0", message: expect.stringMatching(/^Row 1 \(image_urls\.0\): An animated GIF goes alone/) }]);
    expect(await stored(u)).toEqual(nothing);
  });

  it(`refuses more than ${MAX_OUTSIDE_IMAGES} addresses elsewhere in one import before fetching any`, async () => {
    const u = await makeUser({ publishing: true });
    const rows = Array.from({ length: 3 }, (_, r) => ({
      network: "linkedin",
      text: `Row ${r + 1}`,
      image_urls: Array.from({ length: 17 }, (_, i) => `${site.url}/blue-${r * 17 + i}.png`),
    }));
    const error = await refused(u, rows);
    expect(error.details).toEqual([
      { path: "rows.2.image_urls.16", message: expect.stringMatching(/^Row 3 \(image_urls\.16\): More than 50 images from other sites in one import/) },
    ]);
    expect(asked).toEqual([]);
    expect(await stored(u)).toEqual(nothing);
  });

  it("still refuses an address of this service that is no upload of the caller's", async () => {
    const u = await makeUser({ publishing: true });
    const error = await refused(u, [
      { network: "linkedin", text: "Not mine", image_urls: [`${config().origin}/media/${randomUUID()}`] },
      { network: "linkedin", text: "A page of ours", image_urls: [`${config().origin}/settings`] },
    ]);
    expect(error.details.map((d) => d.message)).toEqual([
      expect.stringMatching(/^Row 1 \(image_urls\.0\): No upload of yours has this address/),
      expect.stringMatching(/^Row 2 \(image_urls\.0\): Must be the url of a file uploaded with upload_media/),
    ]);
    expect(await stored(u)).toEqual(nothing);
  });
});
