import type { z } from "zod";
import { config } from "@/lib/config";
import { MAX_TWEET_WEIGHT, tweetWeight } from "@/lib/domain/text";
import { mediaIdFromUrl } from "@/lib/media-url";

type RefineCtx = z.RefinementCtx;

/**
 * Characters a tweet (or a thread's part) may have before it is weighed: X counts at most 280,
 * a link as 23 however long, so this leaves room for long links. Weighing is the costly part:
 * twitter-text's link matching takes about 125 ms for 3,000 characters such as "ａ.ａ.ａ.",
 * and a thread has up to 25 parts; at 1,000 characters it takes about 15.
 */
export const MAX_TWEET_CHARS = 1000;

/** A tweet's limit is X's weighted length, not its character count. */
export function checkTweetLength(body: string, ctx: RefineCtx, path: (string | number)[], label?: string) {
  if (body.length > MAX_TWEET_CHARS) {
    ctx.addIssue({
      code: "custom",
      path,
      message: `${label ? `${label}: ` : ""}A tweet may have at most ${MAX_TWEET_CHARS} characters, links included (and ${MAX_TWEET_WEIGHT} as X counts them, a link as 23); this one has ${body.length}`,
    });
    return;
  }
  const weight = tweetWeight(body);
  if (weight > MAX_TWEET_WEIGHT) {
    ctx.addIssue({
      code: "custom",
      path,
      message: `${label ? `${label}: ` : ""}A tweet is at most ${MAX_TWEET_WEIGHT} characters as X counts them (links 23, wide characters and emoji 2); this one is ${weight}`,
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
