import type { z } from "zod";
import { config } from "@/lib/core/config";
import { MAX_TWEET_CHARS, MAX_TWEET_WEIGHT, tweetWeight } from "@/lib/domain/drafts/text";
import { mediaIdFromUrl } from "@/lib/core/media-url";

type RefineCtx = z.RefinementCtx;

/** A tweet's limit is X's weighted length, not its character count (MAX_TWEET_CHARS too). */
export function checkTweetLength(body: string, ctx: RefineCtx, path: (string | number)[], label?: string) {
  const weight = tweetWeight(body);
  if (weight === undefined) {
    ctx.addIssue({
      code: "custom",
      path,
      message:
        `${label ? `${label}: ` : ""}A tweet may have at most ${MAX_TWEET_CHARS} characters, links included ` +
        `(and ${MAX_TWEET_WEIGHT} as X counts them, a link as 23); this one has ${body.normalize("NFC").length}`,
    });
  } else if (weight > MAX_TWEET_WEIGHT) {
    ctx.addIssue({
      code: "custom",
      path,
      message:
        `${label ? `${label}: ` : ""}A tweet is at most ${MAX_TWEET_WEIGHT} characters ` +
        `as X counts them (links 23, wide characters and emoji 2); this one is ${weight}`,
    });
  }
}

/**
 * Media must be uploads of this service ({origin}/media/{id}, from upload_media): it never
 * fetches arbitrary URLs. Whether the upload is the caller's is the domain's check.
 */
export function checkMediaUrl(url: string, ctx: RefineCtx, path: (string | number)[]) {
  const origin = config().origin;
  if (!mediaIdFromUrl(url, origin))
    ctx.addIssue({ code: "custom", path, message: `Must be the url of a file uploaded with upload_media (${origin}/media/{id})` });
}
