import { generateText } from "ai";
import { describe, expect, it } from "vitest";
import { splitThread, write, writeThread } from "@/lib/adapters/ai";
import { fitTo } from "@/lib/adapters/ai/length";
import { buildPrompt } from "@/lib/adapters/ai/prompts";
import { offlineModel } from "@/lib/adapters/ai/offline-model";
import { tweetWeight } from "@/lib/domain/drafts/text";
import { networkNamed } from "@/lib/domain/networks";
import { graphemes, utf8Bytes } from "@/lib/domain/networks/bluesky";
import type { Brief } from "@/lib/domain/ports";
import { scriptedModel } from "../helpers/model";

// What the writing model returns fits the network it is written for, by that network's own
// text rule: X counts 280 weighted characters (a link 23, a wide character or an emoji 2),
// Bluesky 300 graphemes and 3,000 bytes (a link in full). The same text may fit one and not
// the other, either way round.

const X = networkNamed("x");
const BLUESKY = networkNamed("bluesky");
const voice = { summary: null, tone: ["direct"], niche: "platform engineering", traits: [], samplePosts: ["Ship it.\nOnwards."], bestPosts: [] };
const tweet = (network?: typeof X): Brief => ({ format: "tweet", voice, topic: "Small pull requests", ...(network && { network }) });

/** 290 characters of plain words: over X's 280, within Bluesky's 300. */
const PLAIN = `${"Small diffs ship. ".repeat(16)}Done now.`.slice(0, 290);
/** 150 CJK characters: 300 as X weighs them, 150 graphemes on Bluesky. */
const CJK = "小さな変更は早く届く".repeat(15);
/** 247 characters and a link of 60: 270 as X weighs them (the link 23), 307 graphemes on Bluesky. */
const LINKED = `${"Read this. ".repeat(22)}Now: https://example.com/${"a".repeat(40)}`;

describe("fitting a text to a network's text rule", () => {
  it("keeps what the network takes and trims the rest, never inside a character", () => {
    expect(PLAIN).toHaveLength(290);
    expect(tweetWeight(CJK)).toBe(300);
    expect([tweetWeight(LINKED), graphemes(LINKED)]).toEqual([270, 307]);
    expect(fitTo(BLUESKY.text, PLAIN)).toBe(PLAIN);
    expect(fitTo(BLUESKY.text, CJK)).toBe(CJK);
    expect(fitTo(X.text, LINKED)).toBe(LINKED);
    for (const [rule, text] of [
      [X.text, PLAIN],
      [X.text, CJK],
      [BLUESKY.text, LINKED],
    ] as const) {
      const out = fitTo(rule, text);
      expect(rule.problem(out)).toBeNull();
      expect(out.endsWith("…")).toBe(true);
      expect(text.startsWith(out.slice(0, -1))).toBe(true);
    }
    // Emoji with a skin tone: 299 graphemes fit Bluesky whole; X weighs each 2, and a cut never splits one.
    const thumbs = "👍🏽 ".repeat(150).trim();
    expect(fitTo(BLUESKY.text, thumbs)).toBe(thumbs);
    expect(fitTo(X.text, thumbs)).toMatch(/^(👍🏽 )+👍🏽…$/u);
    // 300 family emoji are 300 graphemes but 7,500 bytes: cut to Bluesky's 3,000 bytes.
    const family = fitTo(BLUESKY.text, "👨‍👩‍👧‍👦".repeat(300));
    expect(utf8Bytes(family)).toBeLessThanOrEqual(3000);
    expect(family).toMatch(/^(👨‍👩‍👧‍👦)+…$/u);
  });

  it("splits a thread's answer by the network's rule", () => {
    // Sentences of 144 characters: one a tweet on X, two a post on Bluesky.
    const sentence = `${"word ".repeat(27)}ends now.`;
    expect(sentence).toHaveLength(144);
    const block = Array(4).fill(sentence).join(" ");
    expect(splitThread(block, 10, X.text)).toHaveLength(4);
    const bsky = splitThread(block, 10, BLUESKY.text);
    expect(bsky).toEqual([`${sentence} ${sentence}`, `${sentence} ${sentence}`]);
    // Parts the model separated: each fitted to the network, the first kept whole on Bluesky only.
    expect(splitThread(`${PLAIN}\n---\nTwo.`, 5, BLUESKY.text)).toEqual([PLAIN, "Two."]);
    expect(splitThread(`${PLAIN}\n---\nTwo.`, 5, X.text)[0]).toMatch(/…$/);
  });
});

describe("writing for a network", () => {
  it("tells the model the network and its limit in the network's words", () => {
    const bsky = buildPrompt(tweet(BLUESKY)).system;
    expect(bsky).toContain("one post for Bluesky");
    expect(bsky).toContain("at most 300 characters as Bluesky counts them (every link counts in full)");
    expect(bsky).not.toMatch(/\bX\b|280|23/);
    const x = buildPrompt(tweet()).system;
    expect(x).toContain("one tweet for X");
    expect(x).toContain("at most 280 characters as X counts them (every link counts 23, emoji and CJK characters count 2)");
    const thread = buildPrompt({ ...tweet(BLUESKY), parts: 3 }).system;
    expect(thread).toContain("one thread of exactly 3 posts for Bluesky");
    expect(thread).toContain("exactly 3 posts, each at most 300 characters as Bluesky counts them");
  });

  it("keeps a text that fits the network, and asks again in its words before trimming one that does not", async () => {
    const bsky = scriptedModel(PLAIN);
    expect(await write(bsky.model, tweet(BLUESKY))).toBe(PLAIN);
    expect(bsky.calls).toHaveLength(1);
    const x = scriptedModel(PLAIN);
    const out = await write(x.model, tweet());
    expect(tweetWeight(out)).toBeLessThanOrEqual(280);
    expect(x.calls).toHaveLength(2);
    expect(x.calls[1].prompt).toContain("A tweet is at most 280 characters as X counts them");
    // The other way round: a long link fits X, not Bluesky, which says why in its own words.
    const linked = scriptedModel(LINKED, "Read this: https://example.com/a");
    expect(await write(linked.model, tweet(BLUESKY))).toBe("Read this: https://example.com/a");
    expect(linked.calls[1].prompt).toContain("A Bluesky post is at most 300 characters as Bluesky counts them");
    expect(linked.calls[1].prompt).toContain("this one is 307");
    expect(await write(scriptedModel(LINKED).model, tweet())).toBe(LINKED);
  });

  it("the offline composer fits its thread and its edits to the network", async () => {
    const topic = `${"A long sentence about shipping small changes, reviewed the same day by a colleague who cares. ".repeat(6)}`;
    const parts = await writeThread(offlineModel(), { ...tweet(BLUESKY), topic, parts: 3 });
    expect(parts).toHaveLength(3);
    for (const p of parts) expect(BLUESKY.text.problem(p)).toBeNull();
    // Packed up to Bluesky's 300, which X would not take.
    expect(parts.some((p) => (tweetWeight(p) ?? Infinity) > 280)).toBe(true);
    const source = topic.repeat(3);
    const brief: Brief = { ...tweet(BLUESKY), topic: undefined, sourcePost: source, edit: "rewrite" };
    const { system, prompt } = buildPrompt(brief);
    const rewritten = (await generateText({ model: offlineModel(), system, prompt })).text;
    expect(BLUESKY.text.problem(rewritten)).toBeNull();
    expect(graphemes(rewritten)).toBeGreaterThan(280);
  });
});
