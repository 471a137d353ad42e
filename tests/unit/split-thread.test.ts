import { describe, expect, it } from "vitest";
import { splitThread } from "@/lib/domain/drafts/split";
import { MAX_TWEET_WEIGHT, tweetWeight } from "@/lib/domain/drafts/text";

// The composer's "Split into a thread": parts X takes, cut at paragraphs, then sentences, then
// words, never inside one.

describe("splitting a text into a thread", () => {
  const words = (parts: string[]) => parts.join(" ").split(/\s+/).filter(Boolean);

  it("keeps what fits as one part, and joins short paragraphs", () => {
    expect(splitThread("One.\n\nTwo.")).toEqual(["One.\n\nTwo."]);
  });

  it("cuts a long text into parts that each fit, losing and reordering no word", () => {
    const text = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} says something worth reading about deploys.`).join(" ");
    const parts = splitThread(text);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(tweetWeight(p)).toBeLessThanOrEqual(MAX_TWEET_WEIGHT);
    expect(words(parts)).toEqual(words([text]));
    // At sentence ends, not in the middle of one.
    for (const p of parts.slice(0, -1)) expect(p).toMatch(/\.$/);
  });

  it("cuts one sentence too long for a part at words", () => {
    const text = `${"word ".repeat(120)}end`;
    const parts = splitThread(text);
    for (const p of parts) expect(tweetWeight(p)).toBeLessThanOrEqual(MAX_TWEET_WEIGHT);
    expect(words(parts)).toEqual(words([text]));
  });
});
