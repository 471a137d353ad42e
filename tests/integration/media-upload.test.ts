import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { MEDIA_STORAGE_BYTES } from "@/lib/domain/owner/allowances";
import { mediaWork, PDF_TYPE } from "@/lib/domain/media/files";
import { authenticate, revokeApp } from "@/lib/domain/apps/tokens";
import { ports } from "@/lib/adapters/ports";
import { execute } from "@/lib/operations/execute";
import { PART_BYTES, serveMedia } from "@/lib/transports/http/media";
import { uploadMediaOp } from "@/lib/operations/media/upload-media";
import { media } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withRealLimits } from "../helpers/rate-limit";
import {
  deflateBombPdf,
  encryptedPdf,
  gif,
  jpeg,
  jpegWithGps,
  pageTreeInBombPdf,
  pageTreeTwice,
  pdf,
  pdfCarrying,
  png,
  upload,
  uploadRaw,
  webp,
} from "../helpers/media";

withDatabase();

let u: TestUser;
beforeAll(async () => {
  u = await makeUser();
});

const rows = async (userId: string) => (await db()).select().from(media).where(eq(media.userId, userId));
const noSession = async () => null;
const get = (id: string, opts: { token?: string; session?: string | null; method?: string } = {}) =>
  serveMedia(
    new Request(`${config().origin}/media/${id}`, { method: opts.method ?? "GET", headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} }),
    id,
    async () => opts.session ?? null,
  );

describe("upload_media", () => {
  it.each([
    ["image/png", png, { width: 12, height: 8, pages: null }],
    ["image/jpeg", jpeg, { width: 12, height: 8, pages: null }],
    ["image/webp", webp, { width: 12, height: 8, pages: null }],
    ["image/gif", gif, { width: 12, height: 8, pages: null }],
    ["application/pdf", () => pdf(3), { width: null, height: null, pages: 3 }],
  ] as const)("stores %s with its size", async (type, make, dims) => {
    const res = expectOk(await uploadRaw(u, await make(), type, { filename: "../My file<script>.html", alt_text: "A blue square" }), uploadMediaOp.output);
    expect(res).toMatchObject({ content_type: type, ...dims, url: `${config().origin}/media/${res.media_id}` });
    const [row] = (await rows(u.id)).filter((r) => r.id === res.media_id);
    expect(row).toMatchObject({ contentType: type, bytes: res.bytes, altText: "A blue square" });
    expect(row.data.byteLength).toBe(res.bytes);
    expect(row.filename).toMatch(/^My file_script\.(png|jpg|webp|gif|pdf)$/);
  });

  it("keeps a GIF animated", async () => {
    const res = await upload(u, await gif(), "image/gif");
    const [row] = (await rows(u.id)).filter((r) => r.id === res.media_id);
    const meta = await sharp(row.data, { animated: true }).metadata();
    expect(meta.pages).toBe(2);
  });

  it("strips EXIF (GPS position, artist) from images", async () => {
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(u, original, "image/jpeg");
    const [row] = (await rows(u.id)).filter((r) => r.id === res.media_id);
    const meta = await sharp(row.data).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(Buffer.from(row.data).includes("Jane Roe")).toBe(false);
  });

  it("refuses bytes that are not what content_type says, SVG, HTML and other types, storing nothing", async () => {
    const before = (await rows(u.id)).length;
    const cases: [Uint8Array, string, string][] = [
      [await png(), "image/jpeg", "data"],
      [Buffer.from("<!doctype html><script>alert(1)</script>"), "image/png", "data"],
      [Buffer.from("<html><body>hi</body></html>"), "application/pdf", "data"],
      [await jpeg(), "application/pdf", "data"],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "image/svg+xml", "content_type"],
      [Buffer.from("<html></html>"), "text/html", "content_type"],
      [Buffer.from("%PDF-1.7 garbage that is no pdf"), "application/pdf", "data"],
      [Buffer.concat([(await png()).subarray(0, 40)]), "image/png", "data"],
      [await encryptedPdf(), "application/pdf", "data"],
    ];
    for (const [bytes, type, path] of cases) {
      const res = await uploadRaw(u, bytes, type);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const notBase64 = await call("upload_media", { data: "not base64!", content_type: "image/png" }, { token: u.token });
    expectError(notBase64, 400, "invalid_request");
    expect((await rows(u.id)).length).toBe(before);
  });

  it("refuses an encrypted PDF saying so", async () => {
    const res = await uploadRaw(u, await encryptedPdf(), "application/pdf");
    expect(res.body.error.details[0].message).toMatch(/encrypted/);
  });

  it("refuses at once a PDF whose page tree names a branch twice (a few kilobytes that a naive count walks 2^40 times)", async () => {
    const res = await uploadRaw(u, pageTreeTwice(40), "application/pdf");
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details[0].message).toMatch(/names one page or branch twice/);
  });

  it("reads a PDF with a stream that inflates to half a gigabyte without taking the memory", async () => {
    const bomb = await deflateBombPdf(512);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const peak = process.resourceUsage().maxRSS;
    const res = await uploadRaw(u, bomb, "application/pdf");
    // Nothing in the stream is needed to count the pages, so it is never decoded; the file is
    // taken as sent.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ pages: 1, bytes: bomb.length });
    // Decoded whole, the stream would take the process far past this bound.
    expect((process.resourceUsage().maxRSS - peak) / 1024).toBeLessThan(300);
  });

  it("refuses a PDF whose page tree sits in a stream that inflates to two gigabytes, without taking the memory", async () => {
    const bomb = await pageTreeInBombPdf(2048);
    expect(bomb.length).toBeLessThan(3 * 1024 * 1024);
    const before = (await rows(u.id)).length;
    const peak = process.resourceUsage().maxRSS;
    const res = await uploadRaw(u, bomb, "application/pdf");
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details[0].message).toMatch(/decodes to more than 32 MB/);
    expect((process.resourceUsage().maxRSS - peak) / 1024).toBeLessThan(300);
    expect((await rows(u.id)).length).toBe(before);
  });

  // Each limit in a test of its own: tens of megabytes each, they take a while on a busy
  // machine (minutes, on two cores shared with the browser tests), so each has room for that.
  it("refuses an image over 5 MB, storing nothing", async () => {
    const before = (await rows(u.id)).length;
    const bigPng = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024)]);
    expect((await uploadRaw(u, bigPng, "image/png")).body.error.details[0].message).toMatch(/at most 5 MB/);
    expect((await rows(u.id)).length).toBe(before);
  });

  it("refuses a PDF over 20 MB and takes one just under it whole", async () => {
    const before = (await rows(u.id)).length;
    const bigPdf = Buffer.concat([await pdf(1), Buffer.alloc(20 * 1024 * 1024)]);
    const big = await uploadRaw(u, bigPdf, "application/pdf");
    expectError(big, 400, "invalid_request");
    expect(big.body.error.details[0].message).toMatch(/at most 20 MB/);
    expect((await rows(u.id)).length).toBe(before);
    // Right at the limits: a PDF of just under 20 MB goes through REST whole (its bulk an
    // attached file, which reads at once, where as much padding is read byte by byte).
    const largest = await pdfCarrying(randomBytes(20 * 1024 * 1024 - 64 * 1024));
    expect(largest.length).toBeGreaterThan(20 * 1024 * 1024 - 128 * 1024);
    expect(largest.length).toBeLessThanOrEqual(20 * 1024 * 1024);
    const ok = await uploadRaw(u, largest, "application/pdf");
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ bytes: largest.length, pages: 1 });
    expect((await rows(u.id)).length).toBe(before + 1);
  }, 180_000);

  it("refuses a PDF of more than 300 pages and takes one of 300", async () => {
    const before = (await rows(u.id)).length;
    const long = await uploadRaw(u, await pdf(301), "application/pdf");
    expectError(long, 400, "invalid_request");
    expect(long.body.error.details[0].message).toMatch(/more than 300 pages/);
    expect((await rows(u.id)).length).toBe(before);
    expect((await uploadRaw(u, await pdf(300), "application/pdf")).status).toBe(200);
    expect((await rows(u.id)).length).toBe(before + 1);
  }, 180_000);

  it("refuses a decompression bomb (a small file declaring a huge canvas)", async () => {
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const res = await uploadRaw(u, bomb, "image/png");
    expectError(res, 400, "invalid_request");
    expect(res.body.error.details[0].message).toMatch(/pixel limit/);
  });

  it("takes a body over the usual 256 KiB only for this operation, and refuses one over its own cap", async () => {
    const bytes = Buffer.concat([await pdf(1), Buffer.alloc(3 * 1024 * 1024)]);
    expect((await uploadRaw(u, bytes, "application/pdf")).status).toBe(200);
    const other = await call("create_draft", { type: "post", body: "x".repeat(300 * 1024) }, { token: u.token });
    expectError(other, 400, "invalid_request");
    expect(other.body.error.details[0].path).toBe("(body)");
    const huge = await call("upload_media", { data: "A".repeat(29 * 1024 * 1024), content_type: "application/pdf" }, { token: u.token });
    expectError(huge, 400, "invalid_request");
    expect(huge.body.error.details[0].path).toBe("(body)");
  });

  it("refuses an upload beyond the plan's media storage", async () => {
    const plus = await makeUser({ plan: "plus" });
    const small = await upload(plus, await png(), "image/png");
    // Fill the allowance without writing 100 MB: only the recorded sizes count.
    await (
      await db()
    )
      .insert(media)
      .values({ userId: plus.id, contentType: "image/png", bytes: MEDIA_STORAGE_BYTES.plus - small.bytes - 10, data: new Uint8Array([1]) });
    const res = await uploadRaw(plus, await png(), "image/png");
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toMatch(/media storage of the plus plan/);
    expect((await rows(plus.id)).length).toBe(2);
    // Full to the byte: refused before the file is even read (bytes that are no image say so).
    await (await db()).insert(media).values({ userId: plus.id, contentType: "image/png", bytes: 10, data: new Uint8Array([1]) });
    const full = await uploadRaw(plus, Buffer.concat([(await png()).subarray(0, 40)]), "image/png");
    expectError(full, 422, "action_failed");
    expect(full.body.error.message).toMatch(/No upload fits in the media storage of the plus plan/);
    // Two uploads at once into room for one: exactly one fits (the user's row is the lock).
    const racer = await makeUser({ plan: "plus" });
    const file = await png(40, 40);
    const size = (await upload(racer, file, "image/png")).bytes;
    await (
      await db()
    )
      .insert(media)
      .values({ userId: racer.id, contentType: "image/png", bytes: MEDIA_STORAGE_BYTES.plus - Math.floor(2.5 * size), data: new Uint8Array([1]) });
    const both = await Promise.all([uploadRaw(racer, file, "image/png"), uploadRaw(racer, file, "image/png")]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    // Another plan's allowance is its own.
    expect((await uploadRaw(u, await png(), "image/png")).status).toBe(200);
  });

  it("works on two images and one PDF at a time with at most four waiting each; one more is refused as temporarily unavailable, storing nothing", async () => {
    const busy = await makeUser();
    const file = await png();
    for (const [line, type, make] of [
      [mediaWork.image, "image/png", async () => file],
      [mediaWork.pdf, "application/pdf", () => pdf(1)],
    ] as const) {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      // Other uploads occupy every place (slots, then the line).
      const occupied = Array.from({ length: line === mediaWork.image ? 2 : 1 }, () => line.run(() => gate));
      const waiting = Array.from({ length: 4 }, async () => uploadRaw(busy, await make(), type));
      await vi.waitFor(() => expect(line.waiting).toBe(4));
      const before = (await rows(busy.id)).length;
      const refused = await uploadRaw(busy, await make(), type);
      expectError(refused, 503, "temporarily_unavailable");
      expect(refused.headers.get("retry-after")).toBeTruthy();
      expect((await rows(busy.id)).length).toBe(before);
      // The other kind has a line of its own.
      const other = type === PDF_TYPE ? upload(busy, file, "image/png") : upload(busy, await pdf(1), "application/pdf");
      expect((await other).media_id).toBeTruthy();
      release();
      await Promise.all(occupied);
      expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect((await upload(busy, await make(), type)).media_id).toBeTruthy();
      expect((await rows(busy.id)).length).toBe(before + 6);
    }
  });

  it("stores nothing for an app disconnected after its token was checked", async () => {
    // An upload spends seconds decoding before it writes; the owner may disconnect the app
    // meanwhile. The call's token check has passed: the write itself must see the disconnect.
    const app = await makeUser();
    const d = await db();
    const auth = await authenticate(d, app.token, config().baseUrl);
    if (!auth.ok) throw new Error(auth.reason);
    await revokeApp(d, app.id, app.appId);
    const ctx = { db: d, caller: auth.caller, now: () => new Date(), ports: ports(), requestId: randomUUID() };
    const data = (await png()).toString("base64");
    await expect(execute(ctx, uploadMediaOp, { data, content_type: "image/png" })).rejects.toMatchObject({ code: "unauthorized" });
    expect(await rows(app.id)).toEqual([]);
  });
});

describe("GET /media/{id}", () => {
  it("serves the owner's file with safe headers, by bearer token or session", async () => {
    const img = await upload(u, await png(), "image/png", { filename: "Chart été.png" });
    for (const res of [await get(img.media_id, { token: u.token }), await get(img.media_id, { session: u.id })]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'");
      expect(res.headers.get("cache-control")).toBe("private, max-age=86400");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("content-disposition")).toBe(`inline; filename="Chart _t_.png"; filename*=UTF-8''Chart%20%C3%A9t%C3%A9.png`);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length).toBe(img.bytes);
      expect((await sharp(body).metadata()).format).toBe("png");
    }
    const doc = await upload(u, await pdf(1), "application/pdf");
    const res = await get(doc.media_id, { token: u.token });
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="media-[0-9a-f]{8}\.pdf"/);
    // HEAD: the same headers and length, no body; another user's id is missing there too.
    const head = await get(img.media_id, { token: u.token, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(img.bytes));
    expect(head.headers.get("content-type")).toBe("image/png");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await get(img.media_id, { token: (await makeUser()).token, method: "HEAD" })).status).toBe(404);
  });

  it("sends a file of several parts whole and exact; a file deleted while it is sent ends the body short, and the request does not hang", async () => {
    // Random bytes: a part taken from a wrong offset, or two parts swapped, shows.
    const big = await pdfCarrying(randomBytes(Math.floor(2.5 * PART_BYTES)));
    expect(big.length).toBeGreaterThan(2 * PART_BYTES);
    const doc = await upload(u, big, "application/pdf");
    const [stored] = (await rows(u.id)).filter((r) => r.id === doc.media_id);
    const res = await get(doc.media_id, { token: u.token });
    expect(res.headers.get("content-length")).toBe(String(stored.bytes));
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(stored.data))).toBe(true);

    const reader = (await get(doc.media_id, { session: u.id })).body!.getReader();
    expect((await reader.read()).value?.length).toBe(PART_BYTES);
    await (await db()).delete(media).where(eq(media.id, doc.media_id));
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return "ended as if whole";
      })(),
    ).rejects.toThrow(/deleted while it was sent/);
  });

  it("answers another user's media exactly like a missing one", async () => {
    const img = await upload(u, await png(), "image/png");
    const other = await makeUser();
    const foreign = await get(img.media_id, { token: other.token });
    const missing = await get(randomUUID(), { token: other.token });
    const session = await get(img.media_id, { session: other.id });
    expect([foreign.status, missing.status, session.status]).toEqual([404, 404, 404]);
    expect(await foreign.text()).toBe(await missing.text());
    expect([...foreign.headers.entries()]).toEqual([...missing.headers.entries()]);
    expect((await get("not-a-uuid", { token: u.token })).status).toBe(404);
  });

  it("asks for credentials without a session or token, and refuses a bad token", async () => {
    const img = await upload(u, await png(), "image/png");
    const res = await serveMedia(new Request(`${config().origin}/media/${img.media_id}`), img.media_id, noSession);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/);
    expect((await get(img.media_id, { token: "cto_at_nope" })).status).toBe(401);
  });
});

describe("GET /media/{id} and the budget", () => {
  withRealLimits();

  it("costs an app a point of its budget, like any call; the owner's own browser pays nothing", async () => {
    const plus = await makeUser({ plan: "plus" }); // 30 a minute
    const img = await upload(plus, await png(), "image/png"); // the 1st
    for (let i = 0; i < 28; i++) expect((await call("search_content", {}, { token: plus.token })).status).toBe(200);
    expect((await get(img.media_id, { token: plus.token })).status).toBe(200); // the 30th
    const over = await get(img.media_id, { token: plus.token });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await get(img.media_id, { session: plus.id })).status).toBe(200);
  });
});
