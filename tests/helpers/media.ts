import zlib from "node:zlib";
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

/**
 * A PDF written from its objects (numbered from 1, the first the catalog) with a
 * cross-reference table, as writers make them; `trailer` adds entries to its trailer.
 */
function pdfFile(objects: (string | Buffer)[], trailer = ""): Buffer {
  const parts = [Buffer.from("%PDF-1.7\n")];
  const offsets: number[] = [];
  let at = parts[0].length;
  objects.forEach((o, i) => {
    const part = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(o), Buffer.from("\nendobj\n")]);
    offsets.push(at);
    parts.push(part);
    at += part.length;
  });
  const rows = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  const size = objects.length + 1;
  parts.push(Buffer.from(`xref\n0 ${size}\n0000000000 65535 f \n${rows}trailer\n<< /Root 1 0 R /Size ${size} ${trailer}>>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const stream = (dict: string, bytes: Buffer) =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${bytes.length} >>\nstream\n`), bytes, Buffer.from("\nendstream")]);

/** A PDF of `pages` pages, each saying its number; objects from `first` on follow the pages. */
function pagesPdf(pages: number, extra: (first: number) => { catalog?: string; objects?: (string | Buffer)[]; trailer?: string } = () => ({})): Buffer {
  // 1 catalog, 2 page tree, 3 font, then a page and its text for each page.
  const page = (i: number) => 4 + 2 * i;
  const first = page(pages);
  const more = extra(first);
  const objects: (string | Buffer)[] = [
    `<< /Type /Catalog /Pages 2 0 R ${more.catalog ?? ""}>>`,
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${page(i)} 0 R`).join(" ")}] /Count ${pages} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  for (let i = 0; i < pages; i++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 3 0 R >> >> /Contents ${page(i) + 1} 0 R >>`);
    objects.push(stream("", Buffer.from(`BT /F1 12 Tf 20 100 Td (Page ${i + 1}) Tj ET`)));
  }
  return pdfFile([...objects, ...(more.objects ?? [])], more.trailer);
}

export async function pdf(pages = 2): Promise<Buffer> {
  return pagesPdf(pages);
}

/**
 * A one-page PDF carrying `bytes` as an attached file: as large as they are, and quick to read
 * (a reader skips a stream by its length, while bytes appended after a PDF's end are read one
 * by one, which takes seconds a megabyte).
 */
export async function pdfCarrying(bytes: Uint8Array): Promise<Buffer> {
  return pagesPdf(1, (first) => ({
    catalog: `/Names << /EmbeddedFiles << /Names [(data.bin) ${first} 0 R] >> >> `,
    objects: [`<< /Type /Filespec /F (data.bin) /EF << /F ${first + 1} 0 R >> >>`, stream("/Type /EmbeddedFile", Buffer.from(bytes))],
  }));
}

/** A PDF encrypted with the standard handler, under a password nobody knows. */
export async function encryptedPdf(): Promise<Buffer> {
  return pagesPdf(1, (first) => ({
    objects: [`<< /Filter /Standard /V 1 /R 2 /O <${"28bf4e5e".repeat(8)}> /U <${"00".repeat(32)}> /P -4 >>`],
    trailer: `/Encrypt ${first} 0 R /ID [<${"01".repeat(16)}> <${"01".repeat(16)}>] `,
  }));
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

/**
 * `head`, then `mb` megabytes of zeros, as zlib data. A megabyte of zeros is deflated once, in
 * blocks that end byte-aligned and refer to nothing before them (a full flush), and repeated:
 * the stream a deflater makes of the whole, without spending seconds of CPU deflating
 * gigabytes. The checksum is Adler-32 of everything (zeros leave its first sum as it is and add
 * it to the second once a byte).
 */
function deflatedZeros(mb: number, head = ""): Buffer {
  const flushed = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const megabyte = 1024 * 1024;
  const start = zlib.deflateSync(head, flushed); // zlib's header, then `head`, not yet final
  const zeros = zlib.deflateRawSync(Buffer.alloc(megabyte), flushed);
  const last = zlib.deflateRawSync(Buffer.alloc(0)); // an empty final block
  const MOD = 65521;
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(head)) [a, b] = [(a + byte) % MOD, (b + a + byte) % MOD];
  b = Number((BigInt(b) + BigInt(mb) * BigInt(megabyte) * BigInt(a)) % BigInt(MOD));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  return Buffer.concat([start, ...Array<Buffer>(mb).fill(zeros), last, adler]);
}

/** A one-page PDF with an object stream of deflated zeros that decodes to `mb` megabytes (about a thousandth of that sent). */
export async function deflateBombPdf(mb: number): Promise<Buffer> {
  const zeros = deflatedZeros(mb);
  return handmadePdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>",
    stream(`/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode`, zeros),
  ]);
}

/**
 * A one-page PDF whose page tree sits in an object stream followed by `mb` megabytes of deflated
 * zeros, as its cross-reference stream says: a reader must decode the stream to find the pages.
 */
export async function pageTreeInBombPdf(mb: number): Promise<Buffer> {
  const head = "2 0 ";
  const zeros = deflatedZeros(mb, `${head}<< /Type /Pages /Kids [3 0 R] /Count 1 >> `);
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    null, // in object stream 4
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>",
    stream(`/Type /ObjStm /N 1 /First ${head.length} /Filter /FlateDecode`, zeros),
  ];
  const parts = [Buffer.from("%PDF-1.7\n")];
  // Cross-reference rows of 7 bytes: a type (1 in the file, 2 in an object stream), 4 bytes of offset or stream number, 2 of generation or index.
  const row = (type: number, where: number, index = 0) => Buffer.from([type, ...[24, 16, 8, 0].map((b) => (where >>> b) & 255), index >> 8, index & 255]);
  const rows = [row(0, 0, 65535)];
  let at = parts[0].length;
  objects.forEach((o, i) => {
    if (o === null) return rows.push(row(2, 4));
    const part = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(o), Buffer.from("\nendobj\n")]);
    rows.push(row(1, at));
    parts.push(part);
    at += part.length;
  });
  rows.push(row(1, at));
  parts.push(
    Buffer.from("5 0 obj\n"),
    stream("/Type /XRef /Size 6 /W [1 4 2] /Root 1 0 R", Buffer.concat(rows)),
    Buffer.from(`\nendobj\nstartxref\n${at}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
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
