import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mediaIdFromUrl, servedAt, storedMediaId } from "@/lib/core/media-url";

// A caller may name only this origin's uploads; a draft written before APP_URL changed still
// names its uploads under the earlier origin, and they stay its uploads.
describe("media addresses", () => {
  const id = randomUUID();
  const earlier = `http://old-host.example:3000/media/${id.toUpperCase()}`;

  it("a caller's address must be this origin's; a stored one is read under any origin", () => {
    expect(mediaIdFromUrl(`https://app.example/media/${id}`, "https://app.example")).toBe(id);
    expect(mediaIdFromUrl(earlier, "https://app.example")).toBeNull();
    expect(storedMediaId(earlier)).toBe(id);
    for (const other of [
      `https://x.example/media/${id}?a=1`,
      `https://x.example/media/${id}#f`,
      "https://x.example/media/not-an-id",
      "https://x.example/pic.png",
      "not a url",
    ])
      expect(storedMediaId(other), other).toBeNull();
  });

  it("the owner's pages load an upload from this origin and leave any other address as it is", () => {
    expect(servedAt(earlier)).toBe(`/media/${id}`);
    expect(servedAt("https://cdn.example/pic.png")).toBe("https://cdn.example/pic.png");
  });
});
