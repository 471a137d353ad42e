import { MAX_TWEET_WEIGHT, tweetWeight } from "./text";

// "Split into a thread": a text as tweets that X takes, cut at paragraphs, then sentences, then
// words, never inside one. Pure, so the composer and its tests share it.

const fits = (s: string) => (tweetWeight(s) ?? Infinity) <= MAX_TWEET_WEIGHT;

function pack(pieces: string[], joiner: string): string[] {
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && fits(`${last}${joiner}${piece}`)) out[out.length - 1] = `${last}${joiner}${piece}`;
    else out.push(piece);
  }
  return out;
}

export function splitThread(text: string): string[] {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const pieces = paragraphs.flatMap((p) => {
    if (fits(p)) return [p];
    const sentences = p.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g)?.map((s) => s.trim()) ?? [p];
    return sentences.flatMap((s) => (fits(s) ? [s] : pack(s.split(/\s+/), " ")));
  });
  return pack(pieces, "\n\n");
}
