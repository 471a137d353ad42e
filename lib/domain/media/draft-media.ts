import { invalid, type ErrorDetail } from "@/lib/core/errors";
import { mediaIdFromUrl, mediaUrl } from "@/lib/core/media-url";
import type { ThreadPart } from "@/drizzle/schema";
import type { DraftContent } from "../drafts/content-hash";
import type { Ctx } from "../context";
import { MAX_LINKEDIN_IMAGES, MAX_TWEET_IMAGES, type DraftType } from "@/lib/domain/networks";
import { countFrames, mediaInfo, type MediaInfo } from "./media";
import { isImageType, PDF_TYPE } from "./files";

// The media fields of create_draft / update_draft: image_url, image_urls, document_url,
// document_title and thread. Every address must be one of the caller's own uploads of the
// right kind; the draft stores canonical addresses ({origin}/media/{id}), image_urls being
// the list and image_url its first entry.

// The platforms' own limits: drafts never hold what the network would refuse.
export const MAX_POST_IMAGES = MAX_LINKEDIN_IMAGES;
export { MAX_TWEET_IMAGES };
export const MAX_THREAD_PARTS = 24;

export type ThreadPartInput = string | { text: string; image_urls?: string[] };

export type MediaFields = {
  image_url?: string | null;
  image_urls?: string[];
  document_url?: string | null;
  document_title?: string | null;
  thread?: ThreadPartInput[];
};

type Ref = { path: string; url: string; kind: "image" | "document" };

function refsOf(input: MediaFields): Ref[] {
  const refs: Ref[] = [];
  if (input.image_url) refs.push({ path: "image_url", url: input.image_url, kind: "image" });
  input.image_urls?.forEach((url, i) => refs.push({ path: `image_urls.${i}`, url, kind: "image" }));
  if (input.document_url) refs.push({ path: "document_url", url: input.document_url, kind: "document" });
  input.thread?.forEach((p, i) => {
    if (typeof p !== "string") p.image_urls?.forEach((url, j) => refs.push({ path: `thread.${i}.image_urls.${j}`, url, kind: "image" }));
  });
  return refs;
}

/**
 * Every address in the input names an upload of the caller of the right kind (an image for
 * images, a PDF for the document). One that is unknown or another user's gets the same
 * answer, naming the field; nothing is changed.
 */
export async function checkMediaRefs(ctx: Ctx, type: DraftType, input: MediaFields): Promise<void> {
  const refs = refsOf(input);
  if (!refs.length) return;
  const origin = ctx.ports.config().origin;
  const ids = refs.map((r) => mediaIdFromUrl(r.url, origin));
  const known = await mediaInfo(
    ctx.db,
    ctx.caller.userId,
    ids.filter((i): i is string => !!i),
  );
  const problems: ErrorDetail[] = [];
  refs.forEach((r, i) => {
    const id = ids[i];
    const m = id ? known.get(id) : undefined;
    if (!id) problems.push({ path: r.path, message: `Must be the url of a file uploaded with upload_media (${origin}/media/{id})` });
    else if (!m) problems.push({ path: r.path, message: "No upload of yours has this address; upload the file with upload_media and use the url it returns" });
    else if (r.kind === "image" && !isImageType(m.contentType))
      problems.push({ path: r.path, message: "This upload is a PDF, not an image: attach it as document_url" });
    else if (r.kind === "document" && m.contentType !== PDF_TYPE)
      problems.push({ path: r.path, message: "This upload is an image, not a PDF: attach it in image_urls" });
  });
  if (!problems.length && type === "tweet") problems.push(...(await gifsAlone(ctx, refs, ids, known)));
  if (problems.length) throw invalid(problems);
}

/**
 * X takes up to 4 images or one animated GIF a tweet, never both (docs.x.com): in a tweet's
 * images and in each thread part's, an animated GIF goes alone. A one-frame GIF is an image.
 */
async function gifsAlone(ctx: Ctx, refs: Ref[], ids: (string | null)[], known: Map<string, MediaInfo>): Promise<ErrorDetail[]> {
  const parts = new Map<string, { path: string; id: string }[]>();
  refs.forEach((r, i) => {
    const part = r.path.startsWith("thread.") ? r.path.split(".").slice(0, 2).join(".") : "body";
    const list = parts.get(part) ?? [];
    if (!list.some((x) => x.id === ids[i])) list.push({ path: r.path, id: ids[i]! });
    parts.set(part, list);
  });
  const crowded = [...parts.values()].filter((list) => list.length > 1).flat();
  const frames = await countFrames(
    ctx,
    crowded.map((x) => known.get(x.id)!),
  );
  return crowded
    .filter((x) => (frames.get(x.id) ?? 1) > 1)
    .map((x) => ({ path: x.path, message: "An animated GIF goes alone: a tweet carries up to 4 images or one animated GIF, not both (X's rule)" }));
}

/** The one spelling of a media address that drafts store (ids in lower case). */
function canonical(origin: string, url: string): string {
  const id = mediaIdFromUrl(url, origin);
  return id ? mediaUrl(origin, id) : url;
}

export function normalizeThread(origin: string, parts: ThreadPartInput[]): ThreadPart[] {
  return parts.map((p) =>
    typeof p === "string" ? { text: p, image_urls: [] } : { text: p.text, image_urls: (p.image_urls ?? []).map((u) => canonical(origin, u)) },
  );
}

const EMPTY: DraftContent = { title: "", body: "", imageUrl: null, imageUrls: [], documentUrl: null, documentTitle: null, thread: [] };

/**
 * The media a draft has after this input: fields left out stay as they are (`current`; none
 * for a new draft). image_url is shorthand for a one-image list (null: no images).
 */
export function mediaAfter(
  origin: string,
  type: DraftType,
  input: MediaFields,
  current: DraftContent = EMPTY,
): Pick<DraftContent, "imageUrl" | "imageUrls" | "documentUrl" | "documentTitle" | "thread"> {
  const listed = input.image_urls ?? (input.image_url === undefined ? undefined : input.image_url === null ? [] : [input.image_url]);
  const imageUrls = listed ? listed.map((u) => canonical(origin, u)) : current.imageUrls;
  if (type === "tweet") {
    const thread = input.thread !== undefined ? normalizeThread(origin, input.thread) : (current.thread ?? []);
    return { imageUrl: imageUrls[0] ?? null, imageUrls, thread };
  }
  const documentUrl = input.document_url === undefined ? (current.documentUrl ?? null) : input.document_url && canonical(origin, input.document_url);
  // A new or removed document takes its title with it unless one is given.
  const documentTitle = input.document_title !== undefined ? input.document_title : input.document_url !== undefined ? null : (current.documentTitle ?? null);
  const problems: ErrorDetail[] = [];
  if (documentUrl && imageUrls.length) {
    problems.push({
      path: input.document_url ? "document_url" : "image_urls",
      message: "A post carries either images or one document (PDF), not both: remove one (image_urls: [] or document_url: null)",
    });
  }
  if (documentTitle && !documentUrl) problems.push({ path: "document_title", message: "document_title names a document: give document_url too" });
  if (problems.length) throw invalid(problems);
  return { imageUrl: imageUrls[0] ?? null, imageUrls, documentUrl, documentTitle };
}
