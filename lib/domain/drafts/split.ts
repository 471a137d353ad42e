import type { TextRule } from "@/lib/domain/networks/network";

// "Split into a thread": a text as posts the network takes (its text rule: X's weighted 280,
// Bluesky's 300 graphemes), cut at paragraphs, then sentences, then words, never inside one.
// Pure, so the composer and its tests share it.

function pack(pieces: string[], joiner: string, fits: (s: string) => boolean): string[] {
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (last !== undefined && fits(`${last}${joiner}${piece}`)) out[out.length - 1] = `${last}${joiner}${piece}`;
    else out.push(piece);
  }
  return out;
}

export function splitThread(text: string, rule: Pick<TextRule, "problem">): string[] {
  const fits = (s: string) => rule.problem(s) === null;
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const pieces = paragraphs.flatMap((p) => {
    if (fits(p)) return [p];
    const sentences = p.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g)?.map((s) => s.trim()) ?? [p];
    return sentences.flatMap((s) => (fits(s) ? [s] : pack(s.split(/\s+/), " ", fits)));
  });
  return pack(pieces, "\n\n", fits);
}
