import { describe, expect, it } from "vitest";
import { splitThread } from "@/lib/domain/drafts/split";
import { MAX_TWEET_WEIGHT, tweetWeight } from "@/lib/domain/drafts/text";
import { networkNamed } from "@/lib/domain/networks";

// The composer's "Split into a thread": parts the chosen network takes (X's weighted 280,
// Bluesky's 300 graphemes), cut at paragraphs, then sentences, then words, never inside one.

const X = networkNamed("x").text;
const BLUESKY = networkNamed("bluesky").text;

describe("splitting a text into a thread", () => {
  const words = (parts: string[]) => parts.join(" ").split(/\s+/).filter(Boolean);

  it("keeps what fits as one part, and joins short paragraphs", () => {
    expect(splitThread("One.\n\nTwo.", X)).toEqual(["One.\n\nTwo."]);
  });

  it("cuts a long text into parts that each fit, losing and reordering no word", () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} says something worth reading about deploys.`).join(" ");
    const parts = splitThread(text, X);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(tweetWeight(p)).toBeLessThanOrEqual(MAX_TWEET_WEIGHT);
    expect(words(parts)).toEqual(words([text]));
    // At sentence ends, not in the middle of one.
    for (const p of parts.slice(0, -1)) expect(p).toMatch(/\.$/);
  });

  it("cuts one sentence too long for a part at words", () => {
    const text = `${"word ".repeat(120)}end`;
    const parts = splitThread(text, X);
    for (const p of parts) expect(tweetWeight(p)).toBeLessThanOrEqual(MAX_TWEET_WEIGHT);
    expect(words(parts)).toEqual(words([text]));
  });

  it("splits for Bluesky's limit: parts of up to 300 graphemes, where X's would be shorter", () => {
    // Wide characters count 2 on X and 1 on Bluesky: 200 of them fit one Bluesky post.
    const wide = "日本語".repeat(40) + "。"; // 121 graphemes, 241 as X counts them
    const text = Array.from({ length: 4 }, () => wide).join(" ");
    const parts = splitThread(text, BLUESKY);
    for (const p of parts) expect(BLUESKY.count(p)).toBeLessThanOrEqual(300);
    expect(parts.length).toBe(2);
    expect(splitThread(text, X).length).toBe(4);
    // An emoji with its modifier is one: 150 of them and their spaces (299) stay one post.
    expect(splitThread("👍🏽 ".repeat(150).trim(), BLUESKY)).toHaveLength(1);
  });
});
