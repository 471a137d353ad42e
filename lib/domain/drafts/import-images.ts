import { AppError, type ErrorDetail } from "@/lib/core/errors";
import type { Ctx } from "../context";
import type { MediaFields } from "../media/draft-media";
import { isImageType, MAX_IMAGE_BYTES, sniff } from "../media/files";
import { removeMedia, storeUpload } from "../media/media";

// An import's images that are not the caller's uploads: addresses elsewhere, fetched through
// the images port (the SSRF-checked request) and stored as the caller's media exactly as
// upload_media stores a file (sniffed, decoded and re-encoded, within the plan's storage), then
// named by the drafts in their place. The work is bounded: at most MAX_OUTSIDE_IMAGES distinct
// addresses an import, FETCH_AT_ONCE at a time, each within IMAGE_FETCH_MS and MAX_IMAGE_BYTES,
// all of them within FETCH_BUDGET_MS.

/** Distinct addresses elsewhere one import may name: a season's pictures, not a crawler. */
export const MAX_OUTSIDE_IMAGES = 50;
/** Fetched at once: enough to overlap slow servers, few enough to leave the image workers room. */
const FETCH_AT_ONCE = 4;
/** One image, its redirects included. */
const IMAGE_FETCH_MS = 10_000;
/** All of an import's images: what is not fetched by then is a problem of its rows. */
const FETCH_BUDGET_MS = 60_000;

/**
 * Whether an image address is one to fetch: http(s) on another origin than this service's
 * (an address of this service is an upload of the caller's or nothing: it is never fetched).
 */
export function isOutside(origin: string, url: string): boolean {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return false;
  return new URL(url).origin !== new URL(origin).origin;
}

/** Every image address of a draft's fields, where it is (the field's path). */
export function imagesOf(f: MediaFields): { path: string; url: string }[] {
  const out = (f.image_urls ?? []).map((url, i) => ({ path: `image_urls.${i}`, url }));
  f.thread?.forEach((p, i) => {
    if (typeof p !== "string") p.image_urls?.forEach((url, j) => out.push({ path: `thread.${i}.image_urls.${j}`, url }));
  });
  return out;
}

/** The fields without their addresses elsewhere: what can be checked before they are fetched. */
export function withoutOutside<F extends MediaFields>(origin: string, f: F): F {
  const keep = (list: string[]) => list.filter((u) => !isOutside(origin, u));
  return {
    ...f,
    ...(f.image_urls && { image_urls: keep(f.image_urls) }),
    ...(f.thread && { thread: f.thread.map((p) => (typeof p === "string" || !p.image_urls ? p : { ...p, image_urls: keep(p.image_urls) })) }),
  };
}

type Use = { row: number; path: string };

/** Where each address elsewhere is used, in row order, and the uses past the import's cap. */
export function outsideUses(origin: string, rows: { row: number; draft: MediaFields }[]) {
  const uses = new Map<string, Use[]>();
  const over: Use[] = [];
  for (const r of rows)
    for (const { path, url } of imagesOf(r.draft)) {
      if (!isOutside(origin, url)) continue;
      if (!uses.has(url) && uses.size >= MAX_OUTSIDE_IMAGES) over.push({ row: r.row, path });
      else uses.set(url, [...(uses.get(url) ?? []), { row: r.row, path }]);
    }
  return { uses, over };
}

export const overCap = `More than ${MAX_OUTSIDE_IMAGES} images from other sites in one import: upload the rest with upload_media, or split the import`;

const plain = (e: AppError) => (e.details?.length ? e.details.map((d) => d.message).join("; ") : e.message);

/** The last part of an address's path, as the stored file's name (safeFilename cleans it). */
function nameOf(url: string): string | undefined {
  const last = new URL(url).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last) || undefined;
  } catch {
    return last || undefined; // a stray % is no reason to refuse the image
  }
}

/**
 * Fetches and stores each address elsewhere (`uses`, from outsideUses), FETCH_AT_ONCE at a
 * time. Answers each address's stored one, the media stored, and a problem for every use of an
 * address that could not be fetched or is not an image an upload would take. A refusal that is
 * not the image's (too many uploads at once) removes what was stored and is thrown.
 */
export async function fetchOutside(
  ctx: Ctx,
  uses: Map<string, Use[]>,
  problem: (row: number, path: string, message: string) => ErrorDetail,
): Promise<{ at: Map<string, string>; stored: string[]; problems: ErrorDetail[] }> {
  const at = new Map<string, string>();
  const stored: string[] = [];
  const failed = new Map<string, string>();
  const queue = [...uses.keys()];
  const deadline = Date.now() + FETCH_BUDGET_MS;
  let thrown: unknown;
  const one = async (url: string) => {
    const left = deadline - Date.now();
    if (left <= 0) return failed.set(url, `not fetched: the import's ${FETCH_BUDGET_MS / 1000} s for images ran out`);
    const got = await ctx.ports.images.fetch(url, { maxBytes: MAX_IMAGE_BYTES, timeoutMs: Math.min(IMAGE_FETCH_MS, left) });
    if ("error" in got) return failed.set(url, got.error);
    const type = sniff(got.bytes);
    if (!type || !isImageType(type)) return failed.set(url, "it is not an image (PNG, JPEG, GIF or WebP)");
    try {
      const m = await storeUpload(ctx, got.bytes, { content_type: type, filename: nameOf(url) });
      stored.push(m.media_id);
      at.set(url, m.url);
    } catch (e) {
      if (e instanceof AppError && (e.code === "invalid_request" || e.code === "action_failed")) failed.set(url, plain(e));
      else thrown ??= e;
    }
  };
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined && thrown === undefined; url = queue.shift()) await one(url);
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_AT_ONCE, queue.length) }, worker));
  if (thrown !== undefined) {
    await removeMedia(ctx.db, ctx.caller.userId, stored);
    throw thrown;
  }
  const problems = [...failed].flatMap(([url, why]) => uses.get(url)!.map((u) => problem(u.row, u.path, `The image at ${url} could not be used: ${why}`)));
  return { at, stored, problems };
}
