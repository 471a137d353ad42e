import { describe, expect, it } from "vitest";
import { cardDue, cardLink, cardNote, usableCard } from "@/lib/domain/drafts/link-card";
import { attachmentsOf, contentHashOf } from "@/lib/domain/drafts/content-hash";
import { attachmentLines } from "@/lib/transports/mcp/approvals/attachments";

// Which LinkedIn post carries a link card, which card goes out, and that an approval covers
// and shows it (the approval page's attachments, the MCP approval text, the content hash).

const post = (body: string, more: Record<string, unknown> = {}) => ({
  title: "t",
  body,
  imageUrl: null,
  imageUrls: [] as string[],
  documentUrl: null,
  ...more,
});
const card = { source: "https://example.com/a", title: "A title", description: "Words", image: "https://example.com/a.png" };

describe("link cards", () => {
  it("are for the first link of a post without images or document, without a sentence's closing punctuation", () => {
    expect(cardLink(post("Read https://example.com/a. And https://example.com/b"))).toBe("https://example.com/a");
    expect(cardLink(post("No link here"))).toBeNull();
    expect(cardLink(post("https://example.com/a", { imageUrls: ["/media/x"] }))).toBeNull();
    expect(cardLink(post("https://example.com/a", { documentUrl: "/media/d" }))).toBeNull();
  });

  it("go out only for the text's link and only when the page was read", () => {
    expect(usableCard(post("See https://example.com/a", { linkCard: card }))).toEqual(card);
    expect(usableCard(post("See https://example.com/other", { linkCard: card }))).toBeNull();
    expect(usableCard(post("See https://example.com/a", { linkCard: { ...card, error: "the page answered 404" } }))).toBeNull();
    expect(cardNote(post("See https://example.com/a", { linkCard: { ...card, error: "the page answered 404" } }))).toMatch(/^No link card: .*404/);
  });

  it("are read once for a link, and a page that could not be read is tried again after ten minutes", () => {
    const now = new Date("2026-12-05T12:00:00Z");
    const unread = (ago: number) => ({ ...card, error: "no answer within 5 s", readAt: new Date(now.getTime() - ago * 60_000).toISOString() });
    expect(cardDue(post("See https://example.com/a"), now)).toBe("https://example.com/a");
    expect(cardDue(post("See https://example.com/a", { linkCard: card }), now)).toBeNull();
    expect(cardDue(post("See https://example.com/b", { linkCard: card }), now)).toBe("https://example.com/b");
    expect(cardDue(post("See https://example.com/a", { linkCard: unread(5) }), now)).toBeNull();
    expect(cardDue(post("See https://example.com/a", { linkCard: unread(11) }), now)).toBe("https://example.com/a");
  });

  it("are part of what the owner approves: the hash, the approval page's attachments and the MCP approval text", () => {
    const without = post("See https://example.com/a");
    const withCard = post("See https://example.com/a", { linkCard: card });
    expect(contentHashOf(withCard)).not.toBe(contentHashOf(without));
    expect(contentHashOf(post("See https://example.com/a", { linkCard: { ...card, title: "Edited" } }))).not.toBe(contentHashOf(withCard));
    // A page that could not be read adds nothing: it hashes as the post without a card.
    expect(contentHashOf(post("See https://example.com/a", { linkCard: { ...card, error: "x" } }))).toBe(contentHashOf(without));
    expect(attachmentsOf(withCard).link_card).toEqual(card);
    expect(attachmentLines(attachmentsOf(withCard)).join("\n")).toContain(
      "Link card (shown under the post on LinkedIn): A title · Words · https://example.com/a",
    );
  });
});
