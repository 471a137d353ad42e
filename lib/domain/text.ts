import twitter from "twitter-text";

export const MAX_TWEET_WEIGHT = 280;
export const FETCH_BODY_LIMIT = 6000;

/** X's weighted length (URLs count 23, wide characters 2), after NFC normalisation. */
export function tweetWeight(text: string): number {
  return twitter.parseTweet(text.normalize("NFC")).weightedLength;
}

function cut(text: string, max: number): string {
  const chars = Array.from(text); // never split a surrogate pair
  if (chars.length <= max) return text;
  return (
    chars
      .slice(0, max - 1)
      .join("")
      .trimEnd() + "…"
  );
}

/** A title from the first non-empty line of the body, at most 100 characters. */
export function deriveTitle(body: string): string {
  const line =
    body
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "Untitled";
  return cut(line, 100);
}

/** A short preview: whitespace collapsed, at most `max` characters. */
export function preview(body: string | null, max = 120): string {
  return cut((body ?? "").replace(/\s+/g, " ").trim(), max);
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
