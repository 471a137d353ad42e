import twitter from "twitter-text";
import { MAX_TWEET_CHARS, MAX_TWEET_WEIGHT, tweetWeight } from "@/lib/domain/drafts/text";
import type { NetworkSpec, TextRule } from "../network";

// X, a microblog (the API's `micro`): a tweet's weighted length (twitter-text: a link counts
// 23, wide characters and emoji 2), 4 images or one animated GIF (docs.x.com). Its endpoints
// and their scopes: ./endpoints.ts.

/**
 * X refuses a post with more than one cashtag ($TICKER) from a self-serve app (docs.x.com,
 * "Post creation restrictions (self-serve)"): refused on the draft rather than at X.
 */
export const MAX_TWEET_CASHTAGS = 1;

/** X: a tweet carries up to 4 images, or one animated GIF. */
export const MAX_TWEET_IMAGES = 4;

/** Why X would refuse `text` for its cashtags (more than one, from a self-serve app), or null. */
export function cashtagProblem(text: string): string | null {
  const cashtags = twitter.extractCashtags(text.normalize("NFC"));
  if (cashtags.length <= MAX_TWEET_CASHTAGS) return null;
  const listed = cashtags.map((c) => `$${c}`).join(", ");
  return `X takes at most ${MAX_TWEET_CASHTAGS} cashtag a post from apps like this one (self-serve); this one has ${cashtags.length} (${listed})`;
}

const weighted: TextRule = {
  max: MAX_TWEET_WEIGHT,
  unit: "characters as X counts them",
  counting: "every link counts 23, emoji and CJK characters count 2",
  // A text too long to be weighed counts its characters (it is far past the limit either way).
  count: (text) => tweetWeight(text) ?? text.normalize("NFC").length,
  problem: (text) => {
    const weight = tweetWeight(text);
    if (weight === undefined)
      return (
        `A tweet may have at most ${MAX_TWEET_CHARS} characters, links included ` +
        `(and ${MAX_TWEET_WEIGHT} as X counts them, a link as 23); this one has ${text.normalize("NFC").length}`
      );
    if (weight > MAX_TWEET_WEIGHT)
      return `A tweet is at most ${MAX_TWEET_WEIGHT} characters as X counts them (links 23, wide characters and emoji 2); this one is ${weight}`;
    return cashtagProblem(text);
  },
};

export const x: NetworkSpec = {
  id: "x",
  name: "X",
  postNoun: "tweet",
  platform: "micro",
  draftType: "tweet",
  provider: "twitter",
  text: weighted,
  // A first comment is a reply: a tweet like any other.
  comment: weighted,
  images: { max: MAX_TWEET_IMAGES, maxBytes: null },
  // offline.access: a refresh token (X's access tokens live two hours).
  signIn: { kind: "oauth", vars: ["X_CLIENT_ID", "X_CLIENT_SECRET"], extraScopes: ["offline.access"] },
  postId: /^\d+$/,
};
