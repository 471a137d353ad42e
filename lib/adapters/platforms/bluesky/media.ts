import { fitImage } from "@/lib/adapters/workers/image";
import { MAX_IMAGE_PIXELS } from "@/lib/domain/media/files";
import { MAX_BLUESKY_IMAGE_BYTES, MAX_BLUESKY_THUMB_BYTES } from "@/lib/domain/networks/bluesky";
import { PublishError, type MediaItem } from "@/lib/domain/networks/platform";
import type { Progress } from "../parts";
import { readCard } from "@/lib/adapters/pages/open-graph";
import { NET, refusal, type Signed } from "./xrpc";

// A post's embed: its images (app.bsky.embed.images: up to 4, each a blob within the lexicon's
// size, its alt text, its aspect ratio), else a card for its first link (app.bsky.embed.external).
// Blobs go up with com.atproto.repo.uploadBlob first; an image larger than the lexicon allows
// is encoded again to fit (workers/image.ts), as is the card's picture.

export type BlobRef = { $type: "blob"; ref: { $link: string }; mimeType: string; size: number };
type AspectRatio = { width: number; height: number };
export type Embed =
  | { $type: "app.bsky.embed.images"; images: { image: BlobRef; alt: string; aspectRatio?: AspectRatio }[] }
  | { $type: "app.bsky.embed.external"; external: { uri: string; title: string; description: string; thumb?: BlobRef } };

const IMAGE_SECONDS = 20;

const isBlob = (b: unknown): b is BlobRef => {
  const x = b as BlobRef | null;
  return !!x && x.$type === "blob" && typeof x.ref?.$link === "string" && typeof x.mimeType === "string" && typeof x.size === "number";
};

async function upload(call: Signed, data: Uint8Array, type: string, what: string): Promise<BlobRef> {
  const res = await call("com.atproto.repo.uploadBlob", { bytes: { data, type } });
  if (!res.ok) throw await refusal(res, what);
  const blob = ((await res.json().catch(() => null)) as { blob?: unknown } | null)?.blob;
  if (!isBlob(blob)) throw new PublishError("retry", `${NET} accepted the ${what} but returned no usable reference (an upload alone posts nothing).`);
  return blob;
}

/**
 * The images of one post, each uploaded (as Progress records it) and described. A PDS drops a
 * blob no record names within minutes (docs.bsky.app, uploadBlob), so an upload is never
 * reused by a later attempt: it is marked as expiring when it was made.
 */
export async function imagesEmbed(call: Signed, media: MediaItem[], progress: Progress, now: Date): Promise<Embed> {
  const images: { image: BlobRef; alt: string; aspectRatio?: AspectRatio }[] = [];
  for (const m of media) {
    const stored = await progress.media(m, async () => {
      let fitted;
      try {
        fitted = await fitImage(await m.bytes(), MAX_BLUESKY_IMAGE_BYTES, { pixels: MAX_IMAGE_PIXELS, seconds: IMAGE_SECONDS });
      } catch (e) {
        if (e instanceof PublishError) throw e;
        throw new PublishError("failed", `The image ${m.id} could not be prepared for ${NET} (${(e as Error).message}).`);
      }
      const blob = await upload(call, fitted.data, fitted.contentType, "image upload");
      return { id: JSON.stringify({ blob, aspectRatio: { width: fitted.width, height: fitted.height } }), expiresAt: now };
    });
    const { blob, aspectRatio } = JSON.parse(stored) as { blob: BlobRef; aspectRatio: AspectRatio };
    // The lexicon requires alt text, which may be empty; what the owner wrote goes as it is.
    images.push({ image: blob, alt: m.altText ?? "", ...(aspectRatio.width >= 1 && aspectRatio.height >= 1 && { aspectRatio }) });
  }
  return { $type: "app.bsky.embed.images", images };
}

/** A card for `uri` from the page's Open Graph tags, or nothing when there is no link or the page cannot be read. */
export async function cardEmbed(call: Signed, uri: string | null): Promise<Embed | undefined> {
  if (!uri) return undefined;
  const card = await readCard(uri);
  if (!card) return undefined;
  let thumb: BlobRef | undefined;
  if (card.image) {
    // A picture that cannot be read or sent leaves the card without one: it is the page's, not the owner's.
    const fitted = await fitImage(card.image, MAX_BLUESKY_THUMB_BYTES, { pixels: MAX_IMAGE_PIXELS, seconds: IMAGE_SECONDS }).catch(() => null);
    if (fitted) thumb = await upload(call, fitted.data, fitted.contentType, "link preview's picture").catch(() => undefined);
  }
  return { $type: "app.bsky.embed.external", external: { uri: card.uri, title: card.title, description: card.description, ...(thumb && { thumb }) } };
}
