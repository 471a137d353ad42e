import { describe, expect, it } from "vitest";
import { cacheLifetimeSeconds, isMetadataDocumentUrl } from "@/lib/transports/oauth/client-metadata";
import { addressAllowed } from "@/lib/core/address-policy.mjs";

describe("metadata-document client ids and fetching bounds", () => {
  it("recognises https URLs with a path as metadata-document client ids", () => {
    expect(isMetadataDocumentUrl("https://app.example/oauth/client.json")).toBe(true);
    for (const id of [
      "http://app.example/c.json",
      "https://app.example",
      "https://app.example/",
      "https://u:p@app.example/c",
      "https://app.example/a/../c",
      "https://app.example/c#x",
      "00000000-0000-4000-8000-000000000000",
    ])
      expect(isMetadataDocumentUrl(id), id).toBe(false);
  });

  it("connects only to public addresses (loopback only where allowed)", () => {
    for (const a of [
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1",
    ])
      expect(addressAllowed(a, false), a).toBe(false);
    for (const a of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]) expect(addressAllowed(a, false), a).toBe(true);
    expect(addressAllowed("127.0.0.1", true)).toBe(true);
    expect(addressAllowed("10.0.0.1", true)).toBe(false);
  });

  it("reads the document's lifetime from its caching headers, within a day", () => {
    expect(cacheLifetimeSeconds({ "cache-control": "public, max-age=600" })).toBe(600);
    expect(cacheLifetimeSeconds({ "cache-control": "no-store" })).toBe(0);
    expect(cacheLifetimeSeconds({ "cache-control": "max-age=99999999" })).toBe(86400);
    expect(cacheLifetimeSeconds({ expires: new Date(Date.now() + 120_000).toUTCString() })).toBeGreaterThanOrEqual(118);
    expect(cacheLifetimeSeconds({})).toBe(3600);
  });
});
