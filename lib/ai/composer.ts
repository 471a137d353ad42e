import { createHash } from "node:crypto";
import type { Brief, Voice } from "./prompts";

// The built-in offline voice composer: deterministic text from the voice profile and the
// topic, for deployments without a model server. It is no writer, but it uses the author's
// niche, tone, pillar and sign-off, so drafts read as theirs and can be edited from there.

const pick = <T>(items: T[], seed: number, salt: number): T => items[(seed + salt * 7) % items.length];

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

export function composeOffline(b: Brief): string {
  const v = b.voice;
  const subject = (b.topic ?? b.sourcePost ?? "").trim();
  const seed = createHash("sha256").update(JSON.stringify(b)).digest().readUInt32BE(0);
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
