import { createHash } from "node:crypto";
import { networkOfBrief, THREAD_SEPARATOR, type Brief, type Voice } from "./prompts";
import { fits, fitTo } from "./length";

// The built-in offline voice composer: deterministic text from the voice profile and the
// topic, for deployments without a model server. It is no writer, but it uses the author's
// niche, tone, pillar and sign-off, so drafts read as theirs and can be edited from there.

const pick = <T>(items: T[], seed: number, salt: number): T => items[(seed + salt * 7) % items.length];

/** The same brief always gives the same text; the network is left out (the text is only fitted to it). */
const seedOf = ({ network: _, ...b }: Brief) => createHash("sha256").update(JSON.stringify(b)).digest().readUInt32BE(0);

const firstSentence = (text: string) => {
  const clean = text.replace(/\s+/g, " ").trim();
  const m = clean.match(/^(.+?[.!?。！？])(\s|$)/u);
  return (m ? m[1] : clean).trim();
};

/** The author's habitual sign-off: the last short line of their sample posts, if they share one. */
function signOff(v: Voice): string | null {
  const lasts = v.samplePosts.map((p) => p.trim().split(/\n+/).pop()?.trim() ?? "").filter((l) => l.length > 0 && l.length <= 60);
  return lasts[0] ?? null;
}

const hashtag = (s: string | null | undefined) => {
  const word = (s ?? "")
    .replace(/[^\p{L}\p{N} ]/gu, "")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
  return word ? `#${word.slice(0, 30)}` : null;
};

const OPENERS = {
  playful: ["Confession:", "Plot twist:", "Hot take:"],
  direct: ["Here is the thing.", "Short version:", "Let me be direct."],
  warm: ["Something I keep coming back to:", "A small story.", "I have been thinking about this."],
  default: ["A lesson I learned the hard way:", "Something worth saying out loud:", "Here is what I have seen."],
};

function opener(v: Voice, seed: number) {
  const tone = v.tone.map((t) => t.toLowerCase());
  const key = (["playful", "direct", "warm"] as const).find((k) => tone.some((t) => t.includes(k))) ?? "default";
  return pick(OPENERS[key], seed, 1);
}

/** The sentences of a text, in order (paragraph breaks end a sentence too). */
const sentences = (text: string) =>
  text
    .split(/\n+/)
    .flatMap(
      (para) =>
        para
          .replace(/\s+/g, " ")
          .trim()
          .match(/[^.!?。！？]+[.!?。！？]*/gu) ?? [],
    )
    .map((x) => x.trim())
    .filter(Boolean);

// Middle parts when the topic has fewer sentences than the thread has parts.
const POINTS = [
  (t: string) => `What most people miss about ${t}: the small, boring details decide the outcome.`,
  (t: string) => `The mistake I made early with ${t}: trying to do everything at once.`,
  (t: string) => `What worked instead: one change at a time, measured, then kept or dropped.`,
  (t: string) => `A simple test for ${t}: would you explain it the same way to a new colleague?`,
  (t: string) => `The part nobody talks about: ${t} takes patience more than talent.`,
];

/**
 * A thread of `n` parts: a hook, the topic's own sentences (packed up to the network's limit), points in
 * the author's manner when the topic runs out, and a closing question with their sign-off.
 */
export function composeThread(b: Brief, n: number): string[] {
  const v = b.voice;
  const rule = networkOfBrief(b).text;
  const subject = (b.topic ?? b.sourcePost ?? "").trim();
  const seed = seedOf(b);
  const [lead = subject, ...rest] = sentences(subject);
  const short = lead.replace(/[.!?。！？]+$/u, "").slice(0, 80);
  let middle = [...rest];
  // Neighbouring sentences share a part while they fit, until the thread has room for them.
  for (let i = 0; middle.length > n - 2 && i < middle.length - 1;) {
    const joined = `${middle[i]} ${middle[i + 1]}`;
    if (fits(rule, joined)) middle.splice(i, 2, joined);
    else i++;
  }
  // Still too much: the last middle part takes the rest (trimmed below).
  if (middle.length > n - 2) middle = n > 2 ? [...middle.slice(0, n - 3), middle.slice(n - 3).join(" ")] : [];
  for (let i = 0; middle.length < n - 2; i++) middle.push(POINTS[(seed + i) % POINTS.length](short.toLowerCase()));
  const tags = [hashtag(b.pillar), hashtag(v.niche)].filter((t): t is string => !!t).slice(0, 2);
  const trait = v.traits.length ? pick(v.traits, seed, 2).toLowerCase() : null;
  const close = [
    `${trait ? `Staying ${trait} is how I keep at it.` : "That is what stuck with me."} ` +
      `${pick(["What would you add?", "Does this match what you have seen?", "Where do you disagree?"], seed, 3)}`,
    signOff(v),
    tags.join(" ") || null,
  ]
    .filter(Boolean)
    .join("\n\n");
  return [`${opener(v, seed)} ${lead} 🧵`, ...middle, close].map((p) => fitTo(rule, p));
}

/**
 * The owner's own text edited: shortened to its first sentences (about half, at least one),
 * or said again with the author's opener and sign-off around it.
 */
function editOffline(b: Brief, text: string): string {
  if (b.edit === "shorten") {
    const all = sentences(text);
    const kept: string[] = [];
    // The first sentences in order: one that does not fit ends it (a later, shorter one would skip a sentence).
    for (const x of all) {
      if (kept.length && kept.join(" ").length + 1 + x.length > text.length / 2) break;
      kept.push(x);
    }
    return kept.join(" ");
  }
  const seed = seedOf(b);
  const sign = signOff(b.voice);
  return [`${opener(b.voice, seed)} ${text.trim()}`, sign && !text.trim().endsWith(sign) ? sign : null].filter(Boolean).join("\n\n");
}

export function composeOffline(b: Brief): string {
  if (b.format === "tweet" && b.parts) return composeThread(b, b.parts).join(`\n${THREAD_SEPARATOR}\n`);
  if (b.edit && b.sourcePost) {
    const out = editOffline(b, b.sourcePost);
    return b.format === "tweet" ? fitTo(networkOfBrief(b).text, out) : out;
  }
  const v = b.voice;
  const subject = (b.topic ?? b.sourcePost ?? "").trim();
  const seed = seedOf(b);
  const lead = firstSentence(subject);
  const tags = [hashtag(b.pillar), hashtag(v.niche)].filter((t): t is string => !!t);
  if (b.format === "tweet") {
    return [lead, tags.slice(0, 2).join(" ")].filter(Boolean).join("\n\n");
  }
  const niche = v.niche ? ` in ${v.niche}` : "";
  const trait = v.traits.length ? pick(v.traits, seed, 2).toLowerCase() : null;
  const paragraphs = [
    `${opener(v, seed)} ${lead}`,
    subject.length > lead.length ? subject.slice(lead.length).trim() : null,
    `After years${niche}, ${trait ? `being ${trait} taught me this` : "this is what stuck with me"}: the details matter more than the slogans.`,
    b.pillar ? `This is part of how I think about ${b.pillar}.` : null,
    b.instructions ? null : pick(["What would you add?", "Does this match what you have seen?", "Where do you disagree?"], seed, 3),
    signOff(v),
    tags.join(" ") || null,
  ];
  return paragraphs.filter((p): p is string => !!p).join("\n\n");
}
