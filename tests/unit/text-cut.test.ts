import { describe, expect, it } from "vitest";
import { cut, preview } from "@/lib/domain/drafts/text";

// The plain definition: split into code points, keep max - 1 and an ellipsis.
function referenceCut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : chars
        .slice(0, max - 1)
        .join("")
        .trimEnd() + "…";
}
const referencePreview = (text: string, max: number) => referenceCut(text.replace(/\s+/g, " ").trim(), max);

describe("previews and titles cut to a number of characters", () => {
  it("never splits an emoji and counts it as one character", () => {
    expect(cut("😀😀😀", 3)).toBe("😀😀😀");
    expect(cut("😀😀😀😀", 3)).toBe("😀😀…");
    expect(cut("ab😀", 3)).toBe("ab😀");
    expect(cut("ab😀c", 3)).toBe("ab…");
    expect(cut("a😀bc", 3)).toBe("a😀…");
  });

  it("trims the space before the ellipsis and leaves short text alone", () => {
    expect(cut("hello world again", 7)).toBe("hello…");
    expect(cut("short", 120)).toBe("short");
    expect(preview("  many \n\n  spaces\there  ", 120)).toBe("many spaces here");
  });

  it("agrees with splitting into characters and collapsing whitespace, for any text", () => {
    const alphabet = ["a", " ", "  ", "é", "😀", "👩‍💻", "\ud800", "\udc00", "中", "\n", "\t", "\u00a0", "\r\n"];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: rand(30) }, () => alphabet[rand(alphabet.length)]).join("");
      const max = 1 + rand(20);
      expect(cut(text, max), JSON.stringify({ text, max })).toBe(referenceCut(text, max));
      expect(preview(text, max), JSON.stringify({ text, max })).toBe(referencePreview(text, max));
    }
  });
});
