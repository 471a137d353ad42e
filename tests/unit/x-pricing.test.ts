import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { reconfigure } from "../helpers/env";
import { draftPrice, dollars, priceSentence, replyWarning, X_PRICES } from "@/lib/domain/networks/x/pricing";

// X's price table (docs.x.com, pricing, read 2026-08-22) and the sentences the owner reads
// before approving: the composer, the approval page and the MCP approval text say the same.

describe("X's prices", () => {
  it("are the documented ones: $0.015 a post, $0.20 with a URL, $0.005 a post read, $0.001 an owned read", () => {
    expect([X_PRICES.post, X_PRICES.postWithUrl, X_PRICES.postRead, X_PRICES.ownedRead].map(dollars)).toEqual(["$0.015", "$0.20", "$0.005", "$0.001"]);
  });

  it("say why a post costs more", () => {
    expect(priceSentence(draftPrice({ body: "See example.com" }, X_PRICES))).toBe("about $0.20 on X: it contains a link");
    expect(priceSentence(draftPrice({ body: "No link here" }, X_PRICES))).toBe("about $0.015 on X");
    expect(priceSentence(draftPrice({ body: "One", firstComment: "https://example.com" }, X_PRICES))).toBe(
      "about $0.215 on X for 2 posts (the post and its first comment); 1 contains a link",
    );
  });

  it("are overridden by X_PRICES, key by key", () => {
    const restore = reconfigure({ X_PRICES: "url=0.25, read=0.01" });
    try {
      expect(config().xPrices).toEqual({ ...X_PRICES, postWithUrl: 250_000, postRead: 10_000 });
      reconfigure({ X_PRICES: "posts=1" });
      expect(() => config()).toThrow(/X_PRICES/);
    } finally {
      restore();
    }
  });

  it("warn of X's reply rule only where there are replies, unless the operator says X takes them", () => {
    expect(replyWarning({ body: "One" }, "unknown")).toBeNull();
    expect(replyWarning({ body: "One", thread: ["Two"] }, "unknown")).toMatch(/^X may refuse the thread's further parts:/);
    expect(replyWarning({ body: "One", firstComment: "c" }, "refused")).toMatch(/^X may refuse the first comment:/);
    expect(replyWarning({ body: "One", thread: ["Two"] }, "allowed")).toBeNull();
  });
});
