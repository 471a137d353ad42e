import { once } from "node:events";
import zlib from "node:zlib";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { call, type Called, type TestUser } from "./api";

// Small real files of every accepted type, and upload_media through the REST route.

const canvas = (width: number, height: number, color = "#3366cc") => sharp({ create: { width, height, channels: 4, background: color } });

export const png = (w = 12, h = 8) => canvas(w, h).png().toBuffer();
export const jpeg = (w = 12, h = 8) => canvas(w, h).jpeg().toBuffer();
export const webp = (w = 12, h = 8) => canvas(w, h).webp().toBuffer();
/** A two-frame animated GIF, each frame w x h. */
export async function gif(w = 12, h = 8) {
  const frames = await Promise.all([canvas(w, h, "#ff0000").png().toBuffer(), canvas(w, h, "#00ff00").png().toBuffer()]);
  return sharp(frames, { join: { animated: true } })
    .gif()
    .toBuffer();
}
/** A JPEG carrying EXIF with a GPS position and a camera owner. */
export const jpegWithGps = () =>
  canvas(16, 16)
    .jpeg()
    .withExif({ IFD0: { Artist: "Jane Roe", Copyright: "Jane Roe" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1" } })
    .toBuffer();

export async function pdf(pages = 2): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`Page ${i + 1}`, { x: 20, y: 100, size: 12 });
  return Buffer.from(await doc.save());
}

/**
 * A one-page PDF carrying `bytes` as an attached file: as large as they are, and quick to read
 * (bytes appended after a PDF's end are tokenised one by one, which takes seconds a megabyte).
 */
export async function pdfCarrying(bytes: Uint8Array): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  await doc.attach(bytes, "data.bin", { mimeType: "application/octet-stream" });
  return Buffer.from(await doc.save());
}

/** A PDF whose trailer says it is encrypted (pdf-lib cannot write real encryption). */
export async function encryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  doc.context.trailerInfo.Encrypt = doc.context.obj({ Filter: "Standard", V: 1, R: 2, O: "x", U: "y", P: -4 });
  return Buffer.from(await doc.save());
}

/** A PDF written by hand from its objects (numbered from 1, the first the catalog), without a cross-reference table. */
function handmadePdf(objects: (string | Buffer)[]): Buffer {
  const parts = [Buffer.from("%PDF-1.7\n")];
  objects.forEach((o, i) => parts.push(Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(o), Buffer.from("\nendobj\n")));
  parts.push(Buffer.from(`trailer\n<< /Root 1 0 R /Size ${objects.length + 1} >>\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A page tree `depth` levels deep whose every branch names the next one twice: one page, 2^depth to a naive walk, in a few kilobytes. */
export function pageTreeTwice(depth = 40): Buffer {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>"];
  for (let k = 2; k < depth + 2; k++) objects.push(`<< /Type /Pages /Kids [${k + 1} 0 R ${k + 1} 0 R] /Count ${2 ** (depth + 2 - k)} >>`);
  objects.push("<< /Type /Page /MediaBox [0 0 10 10] >>");
  return handmadePdf(objects);
}

/** A one-page PDF with an object stream of deflated zeros that decodes to `mb` megabytes (about a thousandth of that sent). */
export async function deflateBombPdf(mb: number): Promise<Buffer> {
  // Deflated a megabyte at a time, so that making it does not take the memory it stands for.
  const z = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  z.on("data", (c: Buffer) => out.push(c));
  const megabyte = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < mb; i++) if (!z.write(megabyte)) await once(z, "drain");
  z.end();
  await once(z, "end");
  const zeros = Buffer.concat(out);
  return handmadePdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>",
    Buffer.concat([Buffer.from(`<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${zeros.length} >>\nstream\n`), zeros, Buffer.from("\nendstream")]),
  ]);
}

export type Upload = { media_id: string; url: string; content_type: string; bytes: number; width: number | null; height: number | null; pages: number | null };

export async function uploadRaw(u: TestUser, bytes: Uint8Array, content_type: string, extra: Record<string, unknown> = {}): Promise<Called> {
  return call("upload_media", { data: Buffer.from(bytes).toString("base64"), content_type, ...extra }, { token: u.token });
}

/** Uploads and expects success. */
export async function upload(u: TestUser, bytes: Uint8Array, content_type: string, extra: Record<string, unknown> = {}): Promise<Upload> {
  const res = await uploadRaw(u, bytes, content_type, extra);
  if (res.status !== 200) throw new Error(`upload_media failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

export const uploadPng = async (u: TestUser) => upload(u, await png(), "image/png");
export const uploadPdf = async (u: TestUser, pages = 2) => upload(u, await pdf(pages), "application/pdf");
