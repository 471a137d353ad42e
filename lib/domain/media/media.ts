import { randomUUID } from "node:crypto";
import { and, getTableColumns, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { isUuid } from "@/lib/core/ids";
import { mediaUrl, storedMediaId } from "@/lib/core/media-url";
import { media, users, type ApprovalAttachments } from "@/drizzle/schema";
import { MEDIA_STORAGE_BYTES } from "../owner/allowances";
import type { Ctx } from "../context";
import { MB, processUpload, type MediaType } from "./files";
import { stillWanted } from "../apps/tokens";

// upload_media and the reads of stored media: the /media route (its owner only) and the
// checks of image_urls / document_url / thread images on drafts.

export type UploadMediaInput = { data: string; content_type: MediaType; filename?: string; alt_text?: string };

const EXTENSION: Record<MediaType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "application/pdf": "pdf",
};

/**
 * A name safe to put in a Content-Disposition header and to show: no directories, no control
 * or quoting characters, at most 100 characters, and the extension of the real type (so a
 * file called "page.html" cannot be saved as HTML).
 */
export function safeFilename(name: string | undefined | null, type: MediaType, id: string): string {
  const base = (name ?? "")
    .normalize("NFC")
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[^.]*$/, "")
    .replace(/[^\p{L}\p{N} ._()-]+/gu, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s._-]+|[\s._-]+$/g, "");
  const stem = Array.from(base).slice(0, 100).join("") || `media-${id.slice(0, 8)}`;
  return `${stem}.${EXTENSION[type]}`;
}

const mb = (n: number) => `${Math.round((n / MB) * 10) / 10} MB`;

/** Bytes of media the user keeps now. */
export async function storageUsed(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${media.bytes}), 0)::bigint` })
    .from(media)
    .where(eq(media.userId, userId));
  return Number(row?.used ?? 0);
}

const doesNotFit = (ctx: Ctx, bytes: number, used: number, limit: number) =>
  new AppError(
    "action_failed",
    `${bytes ? `This upload (${mb(bytes)}) does not fit` : "No upload fits"} in the ` +
      `media storage of the ${ctx.caller.plan} plan: ${mb(used)} of ${mb(limit)} are used.`,
    "Upload a smaller file, or upgrade the plan for more media storage.",
  );

export async function uploadMedia(ctx: Ctx, input: UploadMediaInput) {
  // The schema checked that data is base64; the decoded bytes are checked by storeUpload.
  const raw = Buffer.from(input.data, "base64");
  const { data: _base64, ...rest } = input;
  return storeUpload(ctx, new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength), rest);
}

/**
 * upload_media's work on the bytes, wherever they came from (the request's body, an image an
 * import fetched): checked against the type and the limits, cleaned, and stored within the
 * plan's storage.
 */
export async function storeUpload(ctx: Ctx, bytes: Uint8Array, input: Omit<UploadMediaInput, "data">) {
  const userId = ctx.caller.userId;
  const limit = MEDIA_STORAGE_BYTES[ctx.caller.plan];
  // A full allowance is refused before any work on the file (an image may take seconds of
  // CPU to decode and re-encode); whether this file fits is decided below, on its cleaned size.
  const before = await storageUsed(ctx.db, userId);
  if (before >= limit) throw doesNotFit(ctx, 0, before, limit);
  const file = await processUpload(bytes, input.content_type, ctx.ports.workers);
  const row = await ctx.db.transaction(async (tx) => {
    // One upload of a user at a time (the user's row is the lock), so two uploads cannot
    // both fit into the last free space.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    await stillWanted(tx, ctx); // decoding took a while: the app may be gone
    const used = await storageUsed(tx, userId);
    if (used + file.data.length > limit) throw doesNotFit(ctx, file.data.length, used, limit);
    const id = randomUUID();
    const [r] = await tx
      .insert(media)
      .values({
        id,
        userId,
        contentType: input.content_type,
        filename: safeFilename(input.filename, input.content_type, id),
        altText: input.alt_text?.trim() || null,
        bytes: file.data.length,
        width: file.width,
        height: file.height,
        pages: file.pages,
        frames: file.frames,
        data: file.data,
      })
      .returning({ id: media.id });
    return r;
  });
  return {
    media_id: row.id,
    url: mediaUrl(ctx.ports.config().origin, row.id),
    content_type: input.content_type,
    bytes: file.data.length,
    width: file.width,
    height: file.height,
    pages: file.pages,
  };
}

/**
 * Removes the user's media among `ids`: an import's fetched images when the import stores
 * nothing (no draft names them yet, and nothing else removes an unused upload).
 */
export async function removeMedia(db: Db, userId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(media).where(and(eq(media.userId, userId), inArray(media.id, ids)));
}

/**
 * `length` bytes of a medium from `offset` (fewer at its end), if it is the user's. The bytes
 * under an id never change, so a file read in parts is the file.
 */
export async function mediaPart(db: Db, userId: string, id: string, offset: number, length: number): Promise<Uint8Array | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ part: sql<Uint8Array>`substring(${media.data} from ${offset + 1} for ${length})` })
    .from(media)
    .where(and(eq(media.id, id), eq(media.userId, userId)));
  return row?.part;
}

export type MediaInfo = {
  id: string;
  contentType: string;
  filename: string | null;
  altText: string | null;
  bytes: number;
  width: number | null;
  height: number | null;
  pages: number | null;
  frames: number | null;
};

/** The user's media among `ids` (without their bytes), by id. */
export async function mediaInfo(db: Db, userId: string, ids: string[]): Promise<Map<string, MediaInfo>> {
  const wanted = [...new Set(ids.filter(isUuid).map((i) => i.toLowerCase()))];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({
      id: media.id,
      contentType: media.contentType,
      filename: media.filename,
      altText: media.altText,
      bytes: media.bytes,
      width: media.width,
      height: media.height,
      pages: media.pages,
      frames: media.frames,
    })
    .from(media)
    .where(and(eq(media.userId, userId), inArray(media.id, wanted)));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Each GIF's frames (more than one: an animation), counted from its bytes and kept when it was
 * uploaded before frames were counted. Other images are one frame.
 */
export async function countFrames(ctx: Ctx, list: MediaInfo[]): Promise<Map<string, number>> {
  const { db } = ctx;
  const userId = ctx.caller.userId;
  const out = new Map<string, number>();
  for (const m of list) {
    if (m.contentType !== "image/gif") continue;
    if (m.frames !== null) {
      out.set(m.id, m.frames);
      continue;
    }
    const [row] = await db
      .select({ data: media.data })
      .from(media)
      .where(and(eq(media.id, m.id), eq(media.userId, userId)));
    if (!row) continue;
    const frames = (await ctx.ports.workers.frames(row.data)) ?? 1;
    await db
      .update(media)
      .set({ frames })
      .where(and(eq(media.id, m.id), eq(media.userId, userId)));
    out.set(m.id, frames);
  }
  return out;
}

/** What the owner's pages show beside an address: alt text, page count, file name. */
export type MediaMeta = Record<string, { alt: string | null; pages: number | null; filename: string | null }>;

/** The meta of the user's media among these addresses (others are left out). */
export async function mediaMeta(db: Db, userId: string, urls: string[]): Promise<MediaMeta> {
  const ids = urls.map((u) => storedMediaId(u));
  const info = await mediaInfo(
    db,
    userId,
    ids.filter((i): i is string => !!i),
  );
  const out: MediaMeta = {};
  urls.forEach((u, i) => {
    const m = ids[i] ? info.get(ids[i]) : undefined;
    if (m) out[u] = { alt: m.altText, pages: m.pages, filename: m.filename };
  });
  return out;
}

/** Every address among some attachments (for mediaMeta). */
export const attachmentUrls = (...sets: (ApprovalAttachments | null | undefined)[]): string[] =>
  sets.flatMap((a) => (a ? [...a.image_urls, ...(a.document ? [a.document.url] : []), ...a.thread.flatMap((p) => p.image_urls)] : []));

/**
 * The address of the caller's medium `url` described as `alt`. A medium never changes once
 * stored, its description included, since an approval shows the description as part of what
 * goes out: one not yet described is described in place (nothing can have shown it as
 * described); one described otherwise is copied with the new description, within the plan's
 * storage, and the copy's address returned. The composer uploads first and describes at save.
 */
export async function describeMedia(ctx: Ctx, url: string, alt: string): Promise<string> {
  const userId = ctx.caller.userId;
  const id = storedMediaId(url);
  const text = alt.trim().slice(0, 1000);
  if (!id || !text) return url;
  const mine = and(eq(media.id, id), eq(media.userId, userId));
  // Every save of the composer sends every description: an unchanged one costs one read, no lock.
  const [m] = await ctx.db.select({ altText: media.altText, bytes: media.bytes }).from(media).where(mine);
  if (!m || m.altText === text) return url;
  if (m.altText === null) {
    const described = await ctx.db
      .update(media)
      .set({ altText: text })
      .where(and(mine, sql`${media.altText} is null`))
      .returning({ id: media.id });
    // Described meanwhile by another save: as if it had been when read.
    return described.length ? url : describeMedia(ctx, url, alt);
  }
  // A copy with the new description: one upload of the user's at a time (the user's row is
  // the lock, as for uploadMedia), so two copies cannot both fit into the last free space.
  return ctx.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const limit = MEDIA_STORAGE_BYTES[ctx.caller.plan];
    const used = await storageUsed(tx, userId);
    if (used + m.bytes > limit) throw doesNotFit(ctx, m.bytes, used, limit);
    const copy = randomUUID();
    // Every column as the original has it, but its id, description and time.
    const kept = Object.values(getTableColumns(media))
      .map((c) => c.name)
      .filter((n) => !["id", "alt_text", "created_at"].includes(n))
      .map((n) => sql.identifier(n));
    const columns = sql.join(kept, sql`, `);
    await tx.execute(sql`insert into media (id, alt_text, ${columns}) select ${copy}, ${text}, ${columns} from media where id = ${id} and user_id = ${userId}`);
    return mediaUrl(ctx.ports.config().origin, copy);
  });
}
