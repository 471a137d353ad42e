import type { z } from "zod";
import { config } from "@/lib/core/config";
import { mediaIdFromUrl } from "@/lib/core/media-url";

type RefineCtx = z.RefinementCtx;

/**
 * Media must be uploads of this service ({origin}/media/{id}, from upload_media): it never
 * fetches arbitrary URLs. Whether the upload is the caller's is the domain's check.
 */
export function checkMediaUrl(url: string, ctx: RefineCtx, path: (string | number)[]) {
  const origin = config().origin;
  if (!mediaIdFromUrl(url, origin))
    ctx.addIssue({ code: "custom", path, message: `Must be the url of a file uploaded with upload_media (${origin}/media/{id})` });
}
