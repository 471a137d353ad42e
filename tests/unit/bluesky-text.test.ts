import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { networkNamed } from "@/lib/domain/networks";
import { utf8Bytes } from "@/lib/domain/networks/bluesky";

// Bluesky's text rule as the composer runs it in the browser, where there is no Buffer:
// 300 graphemes (an emoji with its modifiers, a letter with its accents: 1) and 3,000 bytes
// of UTF-8, counted the same on both sides.

const rule = networkNamed("bluesky").text;

describe("Bluesky's text rule, without Node's Buffer", () => {
  // As in a browser: the rule must not reach for Node's Buffer.
  beforeAll(() => void vi.stubGlobal("Buffer", undefined));
  afterAll(() => void vi.unstubAllGlobals());

  it("counts an emoji with modifiers, a flag and a letter with a combining accent as 1 each", () => {
    expect(rule.count("👩🏽‍💻")).toBe(1);
    expect(rule.count("🇩🇪")).toBe(1);
    expect(rule.count("e\u0301")).toBe(1);
    expect(rule.count("Hi 👋🏾!")).toBe(5);
    expect(rule.max).toBe(300);
  });

  it("takes 300 graphemes and refuses 301, in Bluesky's words", () => {
    expect(rule.problem("a".repeat(300))).toBeNull();
    expect(rule.problem("👍🏻".repeat(300))).toBeNull(); // 300 graphemes, 2,400 bytes
    expect(rule.problem("a".repeat(301))).toMatch(/^A Bluesky post is at most 300 characters as Bluesky counts them .*; this one is 301$/);
  });

  it("counts bytes of UTF-8 after NFC, and refuses past 3,000 however few the graphemes", () => {
    expect(utf8Bytes("é")).toBe(2);
    expect(utf8Bytes("👩🏽‍💻")).toBe(15);
    // 250 family emoji: 250 graphemes, 25 bytes each.
    const families = "👨‍👩‍👧‍👦".repeat(250);
    expect(rule.count(families)).toBe(250);
    expect(rule.problem(families)).toBe("A Bluesky post is at most 3000 bytes of UTF-8; this one has 6250");
    // A decomposed accent is composed first: "e" + U+0301 is "é", 2 bytes.
    expect(rule.problem("e\u0301".repeat(300))).toBeNull();
  });
});
