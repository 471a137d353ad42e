import { describe, expect, it } from "vitest";
import { DEFAULT_RETURN_PATH, safeReturnPath, safeReturnUrl } from "@/lib/transports/auth/return-path";
import { config } from "@/lib/core/config";

// The return path after sign-in, sign-up and onboarding: every form that a browser would
// turn into another site must fall back to the service's own page (APP_URL is
// http://localhost:3000 in the tests).
const HOSTILE = [
  "/\t/evil.example",
  "/%09/evil.example",
  "/\n/evil.example",
  "/%0a/evil.example",
  "/%0d%0a/evil.example",
  "/\r/evil.example",
  "/ /evil.example",
  "/%20/evil.example",
  "/\u00a0/evil.example",
  "/\u2028/evil.example",
  "/\ufeff/evil.example",
  "/\u200b/evil.example",
  "/\u0000/evil.example",
  "/%00/evil.example",
  "/\u007f/evil.example",
  "/%2509/evil.example", // decoded twice
  "/%252509/evil.example", // decoded three times
  "//evil.example",
  "//evil.example/settings",
  "///evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "/%5cevil.example",
  "/%5Cevil.example",
  "/%2f/evil.example",
  "/%2F%2Fevil.example",
  "%2F%2Fevil.example",
  "/.//evil.example",
  "https://evil.example",
  "https://evil.example/settings/connections",
  "http://localhost:3000.evil.example/",
  "http://localhost:3000/settings", // absolute, even on this origin: only paths
  "HTTPS:evil.example",
  "javascript:alert(1)",
  " /settings",
  "/settings ",
  "evil.example",
  "settings/connections",
  "/settings%", // a broken escape
  "/%E0%A4%A",
  "",
  "/" + "a".repeat(2001),
];

describe("safeReturnPath", () => {
  it.each(HOSTILE)("refuses %j", (raw) => {
    expect(safeReturnPath(raw)).toBe(DEFAULT_RETURN_PATH);
    expect(safeReturnPath(raw, "/onboarding")).toBe("/onboarding");
  });

  it("refuses values that are not strings", () => {
    for (const v of [undefined, null, 42, ["/settings"], { toString: () => "/settings" }]) {
      expect(safeReturnPath(v)).toBe(DEFAULT_RETURN_PATH);
    }
  });

  it.each([
    "/",
    "/settings/connections",
    "/oauth/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=x%20y",
    "/confirm/4f1c2b7e-0000-4000-8000-000000000000",
    "/onboarding?next=%2Fsettings%2Fconnections",
    "/settings/connections#apps",
    "/a/../settings",
  ])("keeps the same-origin path %j as it is", (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });
});

describe("safeReturnUrl", () => {
  it("takes a URL absolute on this service's origin as its path, and nothing else absolute", () => {
    const origin = new URL(config().origin).origin;
    expect(safeReturnUrl(`${origin}/settings/connections?x=1`)).toBe("/settings/connections?x=1");
    expect(safeReturnUrl(origin)).toBe("/");
    expect(safeReturnUrl("/content")).toBe("/content");
    for (const bad of [`${origin}.evil.example/x`, `${origin}//evil.example`, "https://evil.example/", `${origin}@evil.example/`]) {
      expect(safeReturnUrl(bad), bad).toBe(DEFAULT_RETURN_PATH);
    }
  });
});
