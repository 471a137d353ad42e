import { z } from "zod";
import { uploadMedia } from "@/lib/domain/media/media";
import { MAX_IMAGE_BYTES, MAX_PDF_BYTES, MAX_PDF_PAGES, MB, MEDIA_TYPES } from "@/lib/domain/media/files";
import { defineOperation } from "../define";

/** Base64 of the largest file (a 20 MB PDF), rounded up to whole 4-character groups. */
const MAX_BASE64 = Math.ceil(MAX_PDF_BYTES / 3) * 4;

// Standard base64 with padding. Checked with one character class and the length, not zod's
// z.base64(): its grouped pattern overflows V8's regexp stack on strings of a few megabytes.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const Input = z.strictObject({
  data: z
    .string()
    .min(1)
    .max(MAX_BASE64, { message: `The file may be at most ${MAX_PDF_BYTES / MB} MB (a PDF; images at most ${MAX_IMAGE_BYTES / MB} MB)` })
    .refine((s) => s.length % 4 === 0 && BASE64.test(s), { message: "Must be the file's bytes in standard base64 (no data: prefix, no line breaks)" })
    .meta({ contentEncoding: "base64" })
    .describe(`The file's bytes, base64. Images at most ${MAX_IMAGE_BYTES / MB} MB, PDFs at most ${MAX_PDF_BYTES / MB} MB and ${MAX_PDF_PAGES} pages`),
  content_type: z.enum(MEDIA_TYPES).describe("What the bytes are; checked against the bytes themselves (SVG, HTML and other types are refused)"),
  filename: z.string().trim().min(1).max(255).optional().describe("A name for downloads and for you; made safe and given the type's extension"),
  alt_text: z.string().trim().min(1).max(1000).optional().describe("What the image shows, for people who cannot see it (at most 1000 characters)"),
});

const Output = z.strictObject({
  media_id: z.string(),
  url: z.string().describe("Where it is served to you; use it in image_urls, image_url, document_url or a thread part's image_urls"),
  content_type: z.enum(MEDIA_TYPES),
  bytes: z.number().int().describe("Size as stored (images are re-encoded)"),
  width: z.number().int().nullable().describe("Images only, else null"),
  height: z.number().int().nullable().describe("Images only (one frame of an animation), else null"),
  pages: z.number().int().nullable().describe("PDFs only, else null"),
});

/**
 * The request body of an upload is larger than any other: base64 of the largest file plus
 * room for the other fields and JSON. Both REST and MCP read this from the definition.
 */
export const UPLOAD_BODY_BYTES = MAX_BASE64 + 64 * 1024;

export const uploadMediaOp = defineOperation({
  name: "upload_media",
  title: "Upload an image or PDF",
  summary: "Upload an image or PDF",
  description:
    `Stores an image (PNG, JPEG, GIF, WebP; at most ${MAX_IMAGE_BYTES / MB} MB) or a PDF (at most ${MAX_PDF_BYTES / MB} MB and ${MAX_PDF_PAGES} ` +
    `pages) in the user's media, sent as base64 in data, and returns its url. Attach it to drafts with create_draft or update_draft: ` +
    `image_urls (a post up to 20 images, a tweet up to 4), document_url (a PDF shown as a LinkedIn document carousel, posts only), ` +
    `or a thread part's image_urls. Images are re-encoded, which removes hidden metadata such as GPS position; GIF and WebP animations ` +
    `stay animated. The declared content_type must match the bytes. Uploads count toward the plan's media storage. Nothing is posted.`,
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  maxBodyBytes: UPLOAD_BODY_BYTES,
  input: Input,
  output: Output,
  run: (ctx, input) => uploadMedia(ctx, input),
});
