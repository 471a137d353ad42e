import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/transports/http/client-address";

const h = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("clientAddress", () => {
  it("without trusted proxies takes the last entry (the connection's, as server.mjs leaves it)", () => {
    expect(clientAddress(h("192.0.2.9"), 0)).toBe("192.0.2.9");
    expect(clientAddress(h("6.6.6.6, 7.7.7.7, 192.0.2.9"), 0)).toBe("192.0.2.9");
  });

  it("with N proxies takes what the outermost trusted proxy saw; entries the client wrote are ignored", () => {
    // client wrote 6.6.6.6; the proxy appended the client (198.51.100.4); server.mjs the proxy (10.0.0.2)
    expect(clientAddress(h("6.6.6.6, 198.51.100.4, 10.0.0.2"), 1)).toBe("198.51.100.4");
    expect(clientAddress(h("1.1.1.1, 6.6.6.6, 198.51.100.4, 10.0.0.1, 10.0.0.2"), 2)).toBe("198.51.100.4");
  });

  it("with a chain shorter than the proxies configured falls back to its first entry", () => {
    expect(clientAddress(h("10.0.0.2"), 1)).toBe("10.0.0.2");
    expect(clientAddress(h("198.51.100.4, 10.0.0.2"), 3)).toBe("198.51.100.4");
  });

  it("answers unknown without a header, and never believes X-Real-IP", () => {
    expect(clientAddress(h(), 0)).toBe("unknown");
    expect(clientAddress(new Headers({ "x-real-ip": "6.6.6.6" }), 1)).toBe("unknown");
    expect(clientAddress(h(" , "), 0)).toBe("unknown");
  });
});
