import type { NetworkSpec, TextRule } from "../network";

// Bluesky (the AT Protocol), a microblog (the API's `micro`). The authority is the lexicons the
// PDS validates records against (docs/platforms.md, "Bluesky"): app.bsky.feed.post's `text` is
// at most 300 graphemes and 3,000 bytes of UTF-8; app.bsky.embed.images carries up to 4 images
// of at most 1,000,000 bytes each in the PDS this service is tested against (later lexicons
// allow 2,000,000: the smaller limit fits both). No app credentials: an owner signs in with
// their handle, through atproto OAuth (the service is a public client) or with an app password,
// so any deployment can publish to Bluesky.

export const MAX_BLUESKY_GRAPHEMES = 300;
export const MAX_BLUESKY_BYTES = 3000;
export const MAX_BLUESKY_IMAGES = 4;
export const MAX_BLUESKY_IMAGE_BYTES = 1_000_000;
/** app.bsky.embed.external's thumbnail: a blob of at most 1,000,000 bytes. */
export const MAX_BLUESKY_THUMB_BYTES = 1_000_000;

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
// TextEncoder rather than Buffer: the composer counts with this same rule in the browser.
const encoder = new TextEncoder();

/** A text's length in bytes of UTF-8, as the PDS measures a record's string (its maxLength). */
export const utf8Bytes = (text: string) => encoder.encode(text).length;

/** What people see as one character (an emoji with its modifiers, a letter with its accents): what Bluesky counts. */
export function graphemes(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

const post: TextRule = {
  max: MAX_BLUESKY_GRAPHEMES,
  unit: "characters as Bluesky counts them",
  // The text is posted as written (a link's facet only marks it): unlike on X, a link counts in full.
  counting: "every link counts in full",
  count: (text) => graphemes(text.normalize("NFC")),
  problem: (text) => {
    const nfc = text.normalize("NFC");
    const bytes = utf8Bytes(nfc);
    if (bytes > MAX_BLUESKY_BYTES) return `A Bluesky post is at most ${MAX_BLUESKY_BYTES} bytes of UTF-8; this one has ${bytes}`;
    const n = graphemes(nfc);
    if (n > MAX_BLUESKY_GRAPHEMES)
      return (
        `A Bluesky post is at most ${MAX_BLUESKY_GRAPHEMES} characters as Bluesky counts them ` +
        `(an emoji or a letter with its accents is 1); this one is ${n}`
      );
    return null;
  },
};

export const bluesky: NetworkSpec = {
  id: "bluesky",
  name: "Bluesky",
  postNoun: "post",
  platform: "micro",
  draftType: "tweet",
  provider: "bluesky",
  text: post,
  // A first comment is a reply: a post like any other.
  comment: post,
  images: { max: MAX_BLUESKY_IMAGES, maxBytes: MAX_BLUESKY_IMAGE_BYTES },
  signIn: { kind: "app_password" },
  postId: /^at:\/\//,
};
