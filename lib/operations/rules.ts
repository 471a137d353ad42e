import type { z } from "zod";
import { config } from "@/lib/config";
import { MAX_TWEET_WEIGHT, tweetWeight } from "@/lib/domain/text";

type RefineCtx = z.RefinementCtx;

/** A tweet's limit is X's weighted length, not its character count. */
export function checkTweetLength(body: string, ctx: RefineCtx, path: string[]) {
  const weight = tweetWeight(body);
  if (weight > MAX_TWEET_WEIGHT) {
    ctx.addIssue({
      code: "custom",
      path,
      message: `A tweet is at most ${MAX_TWEET_WEIGHT} characters as X counts them (links 23, wide characters and emoji 2); this one is ${weight}`,
    });
  }
}

/** Images must already be hosted by this service: no fetching of arbitrary URLs. */
export function checkImageUrl(url: string, ctx: RefineCtx, path: string[]) {
  const origin = config().origin;
  const local = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);
  let ok = false;
  try {
    const u = new URL(url);
    ok = u.origin === new URL(origin).origin && (u.protocol === "https:" || local) && u.pathname.length > 1;
  } catch {}
  if (!ok) ctx.addIssue({ code: "custom", path, message: `Must be an https URL of an image hosted by this service (${origin}/...)` });
}
