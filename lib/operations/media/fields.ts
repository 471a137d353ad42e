import { z } from "zod";
import { MAX_POST_IMAGES, MAX_THREAD_PARTS, MAX_TWEET_IMAGES } from "@/lib/domain/media/draft-media";
import { checkMediaUrl } from "../rules";

// The media fields create_draft and update_draft share: images, a post's document, a tweet's
// thread. Shapes and counts are checked here; that each address is the caller's own upload of
// the right kind is checked by the domain (it needs the database).

const MediaUrl = z.url().max(2000);

const ImageUrls = z
  .array(MediaUrl)
  .max(MAX_POST_IMAGES)
  .describe(
    `Images uploaded with upload_media, in order: a post up to ${MAX_POST_IMAGES}, a tweet up to ${MAX_TWEET_IMAGES}. Replaces any images the draft has`,
  );

const ThreadPartIn = z.union([
  z.string().min(1).max(3000).describe("The part's text"),
  z.strictObject({
    text: z.string().min(1).max(3000),
    image_urls: z.array(MediaUrl).max(MAX_TWEET_IMAGES).optional().describe(`Up to ${MAX_TWEET_IMAGES} images of this part`),
  }),
]);

const Thread = z
  .array(ThreadPartIn)
  .max(MAX_THREAD_PARTS)
  .describe(
    `Tweets only: the parts after body, each posted as a reply to the one before (1 to ${MAX_THREAD_PARTS}), ` +
      `each a string or { text, image_urls }, each within the network's limit (280 characters as X counts them, 300 on Bluesky)`,
  );

const DocumentTitle = z.string().trim().min(1).max(200);

export const createMediaFields = {
  image_url: MediaUrl.optional().describe("One image uploaded with upload_media (shorthand for image_urls with one entry)"),
  image_urls: ImageUrls.optional(),
  document_url: MediaUrl.optional().describe("Posts only: a PDF uploaded with upload_media, shown as a LinkedIn document carousel (not together with images)"),
  document_title: DocumentTitle.optional().describe("Posts only: the document's title as LinkedIn shows it, 1 to 200 characters"),
  thread: Thread.min(1).optional(),
};

export const updateMediaFields = {
  image_url: MediaUrl.nullable().optional().describe("One image uploaded with upload_media, or null to remove every image"),
  image_urls: ImageUrls.optional().describe(
    `Images uploaded with upload_media, in order (a post up to ${MAX_POST_IMAGES}, a tweet up to ${MAX_TWEET_IMAGES}); [] removes them`,
  ),
  document_url: MediaUrl.nullable().optional().describe("Posts only: a PDF uploaded with upload_media (not together with images), or null to remove it"),
  document_title: DocumentTitle.nullable().optional().describe("Posts only: the document's title, 1 to 200 characters"),
  thread: Thread.optional().describe(`Tweets only: replaces the parts after body (0 to ${MAX_THREAD_PARTS}; [] makes it a single tweet again)`),
};

type Fields = {
  type: "post" | "tweet";
  image_url?: string | null;
  image_urls?: string[];
  document_url?: string | null;
  document_title?: string | null;
  thread?: z.output<typeof ThreadPartIn>[];
};

/** What the schema alone can say about the media fields of a create or an update. */
export function checkMediaFields(v: Fields, ctx: z.RefinementCtx) {
  if (v.image_url !== undefined && v.image_urls !== undefined)
    ctx.addIssue({ code: "custom", path: ["image_urls"], message: "Give image_url or image_urls, not both" });
  if (v.image_url) checkMediaUrl(v.image_url, ctx, ["image_url"]);
  v.image_urls?.forEach((u, i) => checkMediaUrl(u, ctx, ["image_urls", i]));
  if (v.document_url) checkMediaUrl(v.document_url, ctx, ["document_url"]);
  if (v.type === "tweet") {
    if ((v.image_urls?.length ?? 0) > MAX_TWEET_IMAGES)
      ctx.addIssue({ code: "custom", path: ["image_urls"], message: `A tweet carries at most ${MAX_TWEET_IMAGES} images` });
    for (const k of ["document_url", "document_title"] as const)
      if (v[k] !== undefined) ctx.addIssue({ code: "custom", path: [k], message: `${k} is for posts only (a LinkedIn document)` });
    v.thread?.forEach((p, i) => {
      // Each part's length is its network's (lib/domain/drafts/fit.ts).
      if (typeof p !== "string") p.image_urls?.forEach((u, j) => checkMediaUrl(u, ctx, ["thread", i, "image_urls", j]));
    });
  } else {
    if (v.thread !== undefined) ctx.addIssue({ code: "custom", path: ["thread"], message: "thread is for tweets only" });
    if (v.document_url && v.image_urls?.length)
      ctx.addIssue({ code: "custom", path: ["document_url"], message: "A post carries either images or one document (PDF), not both" });
    if (v.document_url && v.image_url)
      ctx.addIssue({ code: "custom", path: ["document_url"], message: "A post carries either images or one document (PDF), not both" });
  }
}
