import { MAX_LINKEDIN_IMAGES } from "@/lib/domain/networks";
import { commonFailure, errorText, send } from "./http";
import type { Progress } from "./parts";
import { untilProcessed, type ProcessingState } from "./processing";
import { DuplicateRefusal, PublishError, type MediaItem, type PublishRequest } from "@/lib/domain/networks/platform";
import type { Answer } from "./request";
import { readImage } from "@/lib/adapters/pages/open-graph";

const NET = "LinkedIn";

/** A LinkedIn REST call with the version and Rest.li headers every /rest endpoint wants: a POST of `body` as JSON, or a GET without one. */
export type LinkedInRest = (path: string, body?: unknown) => Promise<Answer>;

/** The image formats LinkedIn takes (Images API); others are converted before upload. */
const LINKEDIN_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif"]);

/**
 * An image as LinkedIn takes it: JPG, PNG and GIF as they are; any other format (WebP)
 * converted with sharp, an animation to GIF, a still with transparency to PNG, else to JPEG.
 */
async function linkedInImage(m: MediaItem, bytes: Uint8Array): Promise<{ bytes: Uint8Array; contentType: string }> {
  if (LINKEDIN_IMAGE_TYPES.has(m.contentType)) return { bytes, contentType: m.contentType };
  const { default: sharp } = await import("sharp");
  const img = sharp(bytes, { animated: true });
  const meta = await img.metadata();
  const [out, contentType] =
    (meta.pages ?? 1) > 1 ? [img.gif(), "image/gif"] : meta.hasAlpha ? [img.png(), "image/png"] : [img.jpeg({ quality: 90 }), "image/jpeg"];
  const data = await out.toBuffer();
  return { bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), contentType };
}

/** A link card's picture that cannot be read or converted: the card goes without one. */
class NoThumbnail extends Error {}

/** The type of an image by its first bytes (a page's picture comes with no trustworthy type); anything else is converted. */
function imageType(b: Uint8Array): string {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image/png";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "image/gif";
  return "application/octet-stream";
}

/** LinkedIn's processing state of an uploaded document (Documents API: GET /rest/documents/{urn}). */
function documentState(status: unknown): ProcessingState {
  if (status === "AVAILABLE") return { state: "ready" };
  if (status === "PROCESSING_FAILED") return { state: "failed", reason: "LinkedIn reported PROCESSING_FAILED" };
  return { state: "processing" };
}

/** Why LinkedIn refused a request (`what`: "post", "image upload", ...), classified. */
export async function linkedInRefusal(res: Answer, what: string): Promise<PublishError> {
  const common = await commonFailure(NET, res);
  if (common) return common;
  const text = await errorText(res);
  if (res.status === 422 && text.includes("DUPLICATE_POST")) {
    return new DuplicateRefusal("LinkedIn refused it as a duplicate of a post already on the account (DUPLICATE_POST)");
  }
  if (res.status === 403)
    return new PublishError(
      "failed",
      `LinkedIn refused the ${what} (403: ${text}); the connection may lack the w_member_social permission: reconnect LinkedIn.`,
    );
  return new PublishError("failed", `LinkedIn refused the ${what} (${res.status}: ${text}).`);
}

/**
 * Only LinkedIn's own hosts (or the configured API's, a test double) receive the member's
 * token with the bytes: the upload address comes from a response, not from us.
 */
function trustedUploadUrl(url: string, api: string): boolean {
  try {
    const u = new URL(url);
    if (u.origin === new URL(api).origin) return true;
    return u.protocol === "https:" && (u.hostname === "linkedin.com" || u.hostname.endsWith(".linkedin.com"));
  } catch {
    return false;
  }
}

/**
 * Images API and Documents API: initializeUpload (owner: the member) gives an upload URL and
 * the image/document URN; the bytes are PUT there; the post then names the URN.
 */
export function linkedInMedia(rest: LinkedInRest, auth: (call: (token: string) => Promise<Answer>) => Promise<Answer>, owner: string, api: string) {
  const upload = async (kind: "image" | "document", m: MediaItem): Promise<string> => {
    const what = `${kind} upload`;
    const init = await rest(`/rest/${kind}s?action=initializeUpload`, { initializeUploadRequest: { owner } });
    if (!init.ok) throw await linkedInRefusal(init, what);
    const value = ((await init.json().catch(() => null)) as { value?: { uploadUrl?: string; image?: string; document?: string } } | null)?.value;
    const urn = value?.[kind];
    if (!urn || !value?.uploadUrl) throw new PublishError("retry", `LinkedIn answered the ${what} without an upload address or URN.`);
    if (!trustedUploadUrl(value.uploadUrl, api))
      throw new PublishError("failed", `LinkedIn gave an upload address outside linkedin.com for the ${kind}; it was not used.`);
    const file = kind === "image" ? await linkedInImage(m, await m.bytes()) : { bytes: await m.bytes(), contentType: m.contentType };
    const put = await auth((token) =>
      send(NET, value.uploadUrl!, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": file.contentType },
        body: file.bytes as Uint8Array<ArrayBuffer>,
      }),
    );
    if (!put.ok) throw await linkedInRefusal(put, what);
    return urn;
  };

  /** Waits until LinkedIn has processed the document: a post may name it only then. */
  const documentReady = (urn: string) =>
    untilProcessed(NET, "document", async () => {
      const res = await rest(`/rest/documents/${encodeURIComponent(urn)}`);
      if (!res.ok) throw await linkedInRefusal(res, "document's processing status");
      return documentState(((await res.json().catch(() => null)) as { status?: unknown } | null)?.status);
    });

  /**
   * A link card's picture, read from the page's address (the checked request) and uploaded
   * through the Images API (converted when LinkedIn does not take its format); null when it
   * cannot be read or is no image: the card goes without a thumbnail.
   */
  const thumbnail = async (image: string, progress: Progress): Promise<string | null> => {
    const item: MediaItem = { id: `link-card:${image}`, contentType: "", altText: null, frames: null, bytes: async () => new Uint8Array() };
    try {
      return await progress.media(item, async () => {
        const bytes = await readImage(image);
        if (!bytes) throw new NoThumbnail();
        const converted = await linkedInImage({ ...item, contentType: imageType(bytes) }, bytes).catch(() => null);
        if (!converted) throw new NoThumbnail();
        return upload("image", { ...item, contentType: converted.contentType, bytes: async () => converted.bytes });
      });
    } catch (e) {
      if (e instanceof NoThumbnail) return null;
      throw e;
    }
  };

  return {
    /** The post's `content`: one image, 2-20 images, a document, or a link card (article); null for text only. */
    async content(req: PublishRequest, progress: Progress): Promise<Record<string, unknown> | null> {
      const images = req.parts[0].media;
      // Article content (Posts API, "Article"): LinkedIn scrapes no link sent through the API,
      // so the card's source, title, description and thumbnail (an Images API URN) are sent.
      if (req.linkCard && !images.length && !req.document) {
        const card = req.linkCard;
        const thumb = card.image ? await thumbnail(card.image, progress) : null;
        return {
          article: { source: card.source, title: card.title, ...(card.description && { description: card.description }), ...(thumb && { thumbnail: thumb }) },
        };
      }
      if (req.document && images.length) throw new PublishError("failed", "A LinkedIn post carries images or a document, not both.");
      if (req.document) {
        const doc = req.document;
        const id = await progress.media(doc.media, () => upload("document", doc.media));
        await documentReady(id);
        return { media: { id, title: doc.title } };
      }
      if (!images.length) return null;
      if (images.length > MAX_LINKEDIN_IMAGES)
        throw new PublishError("failed", `A LinkedIn post carries at most ${MAX_LINKEDIN_IMAGES} images (this one has ${images.length}).`);
      const list = [];
      for (const m of images) {
        const id = await progress.media(m, () => upload("image", m));
        list.push({ id, ...(m.altText && { altText: m.altText }) });
      }
      return list.length === 1 ? { media: list[0] } : { multiImage: { images: list } };
    },
  };
}
