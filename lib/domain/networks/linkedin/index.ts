import type { NetworkSpec, TextRule } from "../network";

// LinkedIn, for posts (the API's `pronet`): what its Posts, Images, Documents and Comments pages
// say it takes (docs/platforms.md). Its endpoints and their scopes: ./endpoints.ts.

/** LinkedIn's multi-image post: 2 to 20 images. */
export const MAX_LINKEDIN_IMAGES = 20;
/** LinkedIn's comment box takes 1,250 characters (docs/platforms.md). */
export const MAX_LINKEDIN_COMMENT_CHARS = 1250;
/** A post's commentary: 3,000 characters. */
const MAX_POST_CHARS = 3000;

const characters = (max: number, what: string): TextRule => ({
  max,
  unit: "characters",
  count: (text) => Array.from(text).length,
  problem: (text) => {
    const n = Array.from(text).length;
    return n > max ? `${what} is at most ${max} characters; this one has ${n}` : null;
  },
});

export const linkedin: NetworkSpec = {
  id: "linkedin",
  name: "LinkedIn",
  postNoun: "post",
  platform: "pronet",
  draftType: "post",
  provider: "linkedin",
  text: characters(MAX_POST_CHARS, "A LinkedIn post"),
  comment: characters(MAX_LINKEDIN_COMMENT_CHARS, "A LinkedIn comment"),
  images: { max: MAX_LINKEDIN_IMAGES, maxBytes: null },
  // Its OpenID sign-in scopes are the userinfo endpoint's; refresh tokens go to approved partners only.
  signIn: { kind: "oauth", vars: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"], extraScopes: [] },
  postId: /^urn:li:/,
};
