import { commonFailure, errorText, send } from "./http";
import type { Progress } from "./parts";
import { DuplicateRefusal, PublishError, type MediaItem, type PublishRequest } from "./types";
import type { Answer } from "./request";

const NET = "LinkedIn";
/** LinkedIn's multi-image post: 2 to 20 images. */
export const MAX_IMAGES = 20;

/** A LinkedIn REST call: JSON in, with the version and Rest.li headers every /rest endpoint wants. */
export type LinkedInRest = (path: string, body: unknown) => Promise<Answer>;

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
    const bytes = await m.bytes();
    const put = await auth((token) =>
      send(NET, value.uploadUrl!, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": m.contentType },
        body: bytes as Uint8Array<ArrayBuffer>,
      }),
    );
    if (!put.ok) throw await linkedInRefusal(put, what);
    return urn;
  };

  return {
    /** The post's `content`: one image, 2-20 images, or a document; null for text only. */
    async content(req: PublishRequest, progress: Progress): Promise<Record<string, unknown> | null> {
      const images = req.parts[0].media;
      if (req.document && images.length) throw new PublishError("failed", "A LinkedIn post carries images or a document, not both.");
      if (req.document) {
        const doc = req.document;
        const id = await progress.media(doc.media, () => upload("document", doc.media));
        return { media: { id, title: doc.title } };
      }
      if (!images.length) return null;
      if (images.length > MAX_IMAGES) throw new PublishError("failed", `A LinkedIn post carries at most ${MAX_IMAGES} images (this one has ${images.length}).`);
      const list = [];
      for (const m of images) {
        const id = await progress.media(m, () => upload("image", m));
        list.push({ id, ...(m.altText && { altText: m.altText }) });
      }
      return list.length === 1 ? { media: list[0] } : { multiImage: { images: list } };
    },
  };
}
