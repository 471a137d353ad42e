import type { ImageFormat, ImageWork } from "@/lib/domain/ports";

// Images through sharp (libvips), on libuv's thread pool. sharp is imported on the first
// upload only: every route reaches the ports, and most processes never see an upload.

/**
 * Decodes an image and encodes it again in its own format. sharp writes no metadata unless
 * asked, so EXIF (GPS position, camera, owner), XMP and comments are gone; the EXIF orientation
 * is applied to the pixels first so the picture still stands the right way up. GIF and WebP
 * animations stay animated (every frame is encoded again). Throws when sharp cannot read it.
 */
export async function reencodeImage(input: Uint8Array, format: ImageFormat, limits: { pixels: number; seconds: number }): Promise<ImageWork> {
  const animated = format === "gif" || format === "webp";
  const { default: sharp } = await import("sharp");
  const open = () => sharp(input, { animated, limitInputPixels: limits.pixels, failOn: "error" });
  const meta = await open().metadata();
  if (meta.format !== format) return { kind: "other", format: meta.format ?? null };
  const frames = meta.pages ?? 1;
  // Auto-orientation only for still images: an animation carries no EXIF orientation.
  const img = frames > 1 ? open() : open().rotate();
  const out =
    format === "png"
      ? img.png({ compressionLevel: 9 })
      : format === "jpeg"
        ? img.jpeg({ quality: 90, mozjpeg: true })
        : format === "gif"
          ? img.gif()
          : img.webp({ quality: 90 });
  const { data, info } = await out.timeout({ seconds: limits.seconds }).toBuffer({ resolveWithObject: true });
  // For an animation, info.height is every frame stacked; a frame is pageHeight tall.
  const height = (info as { pageHeight?: number }).pageHeight ?? info.height;
  return { kind: "image", data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height, frames };
}

/** An image's frames (more than one: an animation), or null when sharp cannot tell. */
export async function imageFrames(input: Uint8Array): Promise<number | null> {
  const { default: sharp } = await import("sharp");
  const meta = await sharp(input, { animated: true })
    .metadata()
    .catch(() => null);
  return meta?.pages ?? null;
}

/** An image as a network that takes still images of a limited size gets it (Bluesky), with its size in pixels. */
export type FittedImage = { data: Uint8Array; contentType: string; width: number; height: number };

const STILL_TYPES: Record<string, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp" };

/**
 * A still image of at most `maxBytes`: the upload as it is when it already is one (uploads were
 * encoded again, without metadata, when they were made), else encoded again, as JPEG (WebP when
 * it has transparency), at a lower quality and then smaller until it fits. An animation gives
 * its first frame. Throws when sharp cannot read it or it cannot be made to fit.
 */
export async function fitImage(input: Uint8Array, maxBytes: number, limits: { pixels: number; seconds: number }): Promise<FittedImage> {
  const { default: sharp } = await import("sharp");
  const meta = await sharp(input, { limitInputPixels: limits.pixels, failOn: "error" }).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const type = meta.format && STILL_TYPES[meta.format];
  if (type && input.byteLength <= maxBytes && (meta.pages ?? 1) === 1) return { data: input, contentType: type, width, height };
  for (let scale = 1, quality = 85; scale > 0.1; quality > 55 ? (quality -= 15) : (scale *= 0.75)) {
    const img = sharp(input, { limitInputPixels: limits.pixels, failOn: "error" }).resize({ width: Math.max(1, Math.round(width * scale)) });
    const out = meta.hasAlpha ? img.webp({ quality }) : img.jpeg({ quality, mozjpeg: true });
    const { data, info } = await out.timeout({ seconds: limits.seconds }).toBuffer({ resolveWithObject: true });
    if (data.byteLength <= maxBytes)
      return {
        data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        contentType: meta.hasAlpha ? "image/webp" : "image/jpeg",
        width: info.width,
        height: info.height,
      };
  }
  throw new Error(`the image cannot be made smaller than ${maxBytes} bytes`);
}
