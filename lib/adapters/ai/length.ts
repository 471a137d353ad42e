import type { TextRule } from "@/lib/domain/networks/network";

export const MAX_POST_LENGTH = 3000;

/** What a text is fitted to: a network's text rule (X's weighted 280, Bluesky's 300 graphemes), or a post's length. */
export type Fit = Pick<TextRule, "problem">;

const graphemes = (s: string) => Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(s), (g) => g.segment);

/**
 * The longest prefix that fits `fits`, cut at a word boundary when one is near, never inside
 * a grapheme (emoji sequences, accented letters), ending with an ellipsis.
 */
function trimTo(text: string, fits: (s: string) => boolean): string {
  const t = text.trim();
  if (fits(t)) return t;
  const g = graphemes(t);
  // Binary search on grapheme count: fits() is monotone in prefix length.
  let lo = 0;
  let hi = g.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(g.slice(0, mid).join("").trimEnd() + "…")) lo = mid;
    else hi = mid - 1;
  }
  let cut = g.slice(0, lo).join("");
  const space = cut.search(/\s\S*$/);
  if (space > cut.length * 0.7) cut = cut.slice(0, space); // a whole word, when little is lost
  return cut.trimEnd() + "…";
}

/** A post's length as the draft schema counts it (UTF-16 units), within which LinkedIn's own rule always holds. */
export const POST_FIT: Fit = { problem: (s) => (s.length <= MAX_POST_LENGTH ? null : `A post is at most ${MAX_POST_LENGTH} characters`) };

export const fits = (rule: Fit, s: string) => rule.problem(s) === null;

/** `s` when the rule takes it, else its longest prefix that it takes (a word boundary when near, with an ellipsis). */
export const fitTo = (rule: Fit, s: string) => trimTo(s, (t) => fits(rule, t));

/** Models like to wrap their answer in quotes or a label; drafts should not carry them. */
export function tidy(text: string): string {
  let t = text.trim().replace(/^(tweet|post)\s*:\s*/i, "");
  if (/^["“].*["”]$/s.test(t) && !/["“”]/.test(t.slice(1, -1))) t = t.slice(1, -1).trim();
  return t;
}
