import { Admission } from "@/lib/core/admission";
import { AppError, invalid } from "@/lib/core/errors";
import type { ImageFormat, ImageWork, Workers } from "../ports";

// What upload_media accepts, and how the bytes are checked and cleaned before they are
// stored: no database, no request. The work on the bytes is the workers port's (lib/adapters/workers:
// sharp re-encodes an image, a thread of its own counts a PDF's pages); what is accepted,
// the limits, how many run at once and the words of a refusal are decided here.

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const PDF_TYPE = "application/pdf";
export const MEDIA_TYPES = [...IMAGE_TYPES, PDF_TYPE] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const MB = 1024 * 1024;
/** X takes images up to 5 MB; LinkedIn more. The smaller limit lets every image go to both. */
export const MAX_IMAGE_BYTES = 5 * MB;
/** LinkedIn documents: up to 100 MB and 300 pages; 20 MB keeps the database and requests sane. */
export const MAX_PDF_BYTES = 20 * MB;
export const MAX_PDF_PAGES = 300;
/**
 * Pixels decoded at most (all frames of an animation together): a small file can declare a
 * huge canvas, and decoding it would take gigabytes. 50 megapixels is above what LinkedIn
 * (36 MP) and X (8192 x 8192 = 67 MP, rarely) accept in practice for a single picture.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** Decoding and re-encoding an image stops here (sharp's own timeout): far past what the largest real ones take. */
const IMAGE_SECONDS = 20;

export const isImageType = (t: string): t is (typeof IMAGE_TYPES)[number] => (IMAGE_TYPES as readonly string[]).includes(t);

const startsWith = (b: Uint8Array, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The type the bytes really are (magic numbers), or null: never trust the declared type alone. */
export function sniff(b: Uint8Array): MediaType | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(b, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a"))) return "image/gif";
  if (startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8)) return "image/webp";
  // Strictly at the start: a PDF reader would also accept it after junk (an HTML page, say).
  if (startsWith(b, ascii("%PDF-"))) return PDF_TYPE;
  return null;
}

/** `frames`: an image's (more than one: an animation); null for a PDF. */
export type Processed = { data: Uint8Array; width: number | null; height: number | null; pages: number | null; frames: number | null };

const SHARP_FORMAT: Record<(typeof IMAGE_TYPES)[number], ImageFormat> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

const bad = (message: string) => invalid([{ path: "data", message }], "The uploaded file was refused.");

const busy = () =>
  new AppError(
    "temporarily_unavailable",
    "Too many uploads are being processed right now, so this one was not read; nothing was stored.",
    "Retry in a few seconds (Retry-After).",
  );

/**
 * How many uploads this process works on at once, each kind in its own line. An image holds a
 * thread of libuv's pool (4 by default, shared with file and crypto work) for up to
 * IMAGE_SECONDS, so two at a time leave the rest to the service; a PDF holds a core for up to
 * PDF_READ_MS, so one. Four more of each may wait (40 s at worst); beyond that an upload is
 * refused at once as temporarily_unavailable (Retry-After), before it is decoded or stored.
 */
export const mediaWork = { image: new Admission(2, 4, busy), pdf: new Admission(1, 4, busy) };

/**
 * Decodes and re-encodes an image in its own format (the workers port): EXIF (GPS position,
 * camera, owner), XMP and comments are gone, the orientation is applied to the pixels, and
 * GIF and WebP animations stay animated.
 */
async function processImage(input: Uint8Array, type: (typeof IMAGE_TYPES)[number], workers: Workers): Promise<Processed> {
  let work: ImageWork;
  try {
    work = await workers.image(input, SHARP_FORMAT[type], { pixels: MAX_IMAGE_PIXELS, seconds: IMAGE_SECONDS });
  } catch (e) {
    // sharp's messages name the decoder's problem ("Input image exceeds pixel limit", ...).
    const why = e instanceof Error ? e.message.split("\n")[0].slice(0, 200) : "unreadable";
    throw bad(`The image could not be read (${why})`);
  }
  if (work.kind === "other") throw bad(`The bytes are a ${work.format ?? "unknown"} image, not ${type}`);
  return { data: work.data, width: work.width, height: work.height, pages: null, frames: work.frames };
}

/** How long a PDF may take to read: far longer than a real one of the largest allowed size needs. */
const PDF_READ_MS = 10_000;
/** The reading thread's heap; the bytes being read are outside it, and decoded streams are bounded there. */
const PDF_HEAP_MB = 256;

/** One PDF is read at a time (mediaWork.pdf): a hostile file then holds at most one core, for at most PDF_READ_MS. */
const readPdf = (input: Uint8Array, workers: Workers) =>
  mediaWork.pdf.run(() => workers.pdfPages(input, { max: MAX_PDF_PAGES, ms: PDF_READ_MS, heapMb: PDF_HEAP_MB }));

/**
 * Counts a PDF's pages with pdf.js, on a thread of its own (pdf-pages.worker.cjs). Encrypted
 * or unparseable files are refused: LinkedIn cannot show them, and an encrypted one cannot be
 * checked. The bytes are stored as sent. The thread bounds the bytes a compressed stream may
 * decode to: a few kilobytes of deflated zeros would otherwise take gigabytes, outside its
 * capped heap.
 */
async function processPdf(input: Uint8Array, workers: Workers): Promise<Processed> {
  const { pages, error, encrypted } = await readPdf(input, workers);
  if (encrypted) throw bad("The PDF is encrypted (password-protected); upload an unprotected copy");
  if (error) throw bad(error === "unreadable" ? "The PDF could not be read" : `The PDF could not be read (${error})`);
  if (!pages) throw bad("The PDF has no pages");
  if (pages > MAX_PDF_PAGES) throw bad(`The PDF has more than ${MAX_PDF_PAGES} pages; at most ${MAX_PDF_PAGES} are allowed`);
  return { data: input, width: null, height: null, pages, frames: null };
}

/** Checks the bytes against the declared type and the limits, and cleans them for storage. */
export async function processUpload(bytes: Uint8Array, declared: MediaType, workers: Workers): Promise<Processed> {
  const max = declared === PDF_TYPE ? MAX_PDF_BYTES : MAX_IMAGE_BYTES;
  if (bytes.length === 0) throw bad("The file is empty");
  if (bytes.length > max) throw bad(`The file is ${bytes.length} bytes; a ${declared} file may be at most ${max / MB} MB`);
  const actual = sniff(bytes);
  if (actual !== declared) {
    throw bad(actual ? `The bytes are ${actual}, not ${declared}: declare the right content_type` : `The bytes are not a ${declared} file`);
  }
  if (declared === PDF_TYPE) return processPdf(bytes, workers);
  const out = await mediaWork.image.run(() => processImage(bytes, declared as (typeof IMAGE_TYPES)[number], workers));
  if (out.data.length > MAX_IMAGE_BYTES) throw bad(`Re-encoded, the image is larger than ${MAX_IMAGE_BYTES / MB} MB; upload a smaller one`);
  return out;
}
