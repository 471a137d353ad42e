import twitter from "twitter-text";

export const MAX_TWEET_WEIGHT = 280;
export const FETCH_BODY_LIMIT = 6000;

/**
 * Characters a tweet (or a thread's part) may have to be weighed at all: X counts at most 280,
 * a link as 23 however long, so this leaves room for long links. Weighing is the costly part:
 * twitter-text's link matching grows steeply with the length of text such as "ａ.ａ.ａ.", and a
 * thread has up to 25 parts; this cap keeps weighing them all short (docs/performance.md,
 * "Text").
 */
export const MAX_TWEET_CHARS = 1000;

/**
 * X's weighted length (URLs count 23, wide characters 2), after NFC normalisation; undefined
 * for a text longer than MAX_TWEET_CHARS (after normalisation), which is not weighed.
 */
export function tweetWeight(text: string): number | undefined {
  const nfc = text.normalize("NFC");
  return nfc.length > MAX_TWEET_CHARS ? undefined : twitter.parseTweet(nfc).weightedLength;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * `text` if it has at most `max` characters (code points: a surrogate pair is never split),
 * else its first `max - 1` and an ellipsis. Walks only as far as the cut: previews are taken
 * of every row of a page, and splitting whole bodies into characters was a visible share of
 * a search's CPU.
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text; // UTF-16 units: never fewer than the code points
  let end = 0;
  for (let n = 0; n < max - 1 && end < text.length; n++) end += isHigh(text.charCodeAt(end)) && isLow(text.charCodeAt(end + 1)) ? 2 : 1;
  // What is left fits when it is one character: then the whole text does.
  const rest = text.length - end;
  if (rest <= 1 || (rest === 2 && isHigh(text.charCodeAt(end)) && isLow(text.charCodeAt(end + 1)))) return text;
  return text.slice(0, end).trimEnd() + "…";
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

/**
 * A short preview: every run of whitespace one space, at most `max` characters. The pattern
 * matches only what changes (runs, and single whitespace other than a space): `/\s+/g`
 * matched every space of a body and took many times as long.
 */
export function preview(body: string | null, max = 120): string {
  return cut((body ?? "").replace(/\s\s+|[^\S ]/g, " ").trim(), max);
}

/** Like preview, but line breaks stay (a blank line at most between paragraphs): the owner's lists show them. */
export function excerpt(body: string | null, max = 200): string {
  const t = (body ?? "")
    .replace(/\r\n?/g, "\n")
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return cut(t, max);
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
