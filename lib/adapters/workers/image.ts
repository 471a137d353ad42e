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
