import { describe, expect, it } from "vitest";
import { redactSecrets } from "@/lib/core/redact";

// The masking runs on text an outsider controls (platforms' error bodies, thrown messages): it
// must mask what it always masked, and no input may make it slow.

describe("redactSecrets masks credentials", () => {
  it("masks labelled values, authorization schemes, this service's tokens and long opaque runs", () => {
    const cases: [string, string][] = [
      ["Authorization: Bearer abc.def", "Authorization: [redacted] [redacted]"],
      ["got Basic dXNlcjpwYXNz back", "got Basic [redacted] back"],
      ['{"access_token": "ya29.short", "ok": 1}', '{"access_token": "[redacted]", "ok": 1}'],
      ["refresh_token=r1&scope=x", "refresh_token=[redacted]&scope=x"],
      ["client_secret: s3cr3t; next", "client_secret: [redacted]; next"],
      ["X-Api-Key=k1 and code_verifier=v1", "X-Api-Key=[redacted] and code_verifier=[redacted]"],
      ["the whsec_password = hunter2 line", "the whsec_password = [redacted] line"],
      ["token cto_at_AbC-123 was sent", "token [redacted] was sent"],
      [`opaque ${"Z".repeat(40)} end`, "opaque [redacted] end"],
      ["nothing secret here", "nothing secret here"],
    ];
    for (const [text, expected] of cases) expect(redactSecrets(text), text).toBe(expected);
  });

  it("never shows the first part of a token that the end of what is read cuts through", () => {
    // Spaces collapse to nothing, so whatever follows them is within the result.
    const secret = "Q".repeat(20) + "W".repeat(30);
    for (const at of [0, 3_960, 3_970, 3_990, 3_999, 4_000, 10_000]) {
      const out = redactSecrets(`${" ".repeat(at)}${secret} tail`, 300);
      expect(out, String(at)).not.toMatch(/QQ|WW/);
      expect(out.length).toBeLessThanOrEqual(300);
    }
    expect(redactSecrets(`${" ".repeat(3_000)}${secret} tail`, 300)).toBe("[redacted] tail");
  });
});

describe("redactSecrets on hostile input", () => {
  // Each shape once drove a masking pattern into heavy backtracking.
  const shapes: Record<string, string> = {
    "names that keep spelling a credential": "token-".repeat(20_000),
    "a secret-like name without a value": "secret_password-".repeat(8_000),
    "short words between dashes": "a-".repeat(60_000),
    "schemes without credentials": "Bearer ".repeat(16_000),
    "separators without values": "token= ".repeat(16_000),
  };

  for (const [name, text] of Object.entries(shapes)) {
    it(`redacts ${Math.round(text.length / 1000)} KB of ${name} at once, into a bounded text with no long run`, () => {
      const started = performance.now();
      const out = redactSecrets(text, 300);
      // Generous: a linear pass takes milliseconds; the old pattern needed hours here.
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(out.length).toBeLessThanOrEqual(300);
      expect(out.endsWith("…")).toBe(true);
      expect(out).not.toMatch(/[\w-]{32,}/);
    });
  }

  it("takes about as long on a hundred times the text: what is read is bounded", () => {
    const time = (text: string) => {
      const started = performance.now();
      for (let i = 0; i < 5; i++) redactSecrets(text, 300);
      return performance.now() - started;
    };
    const small = "token-".repeat(1_000);
    const large = "token-".repeat(100_000);
    time(small); // warm up
    // Linear would be a hundred times; bounded stays near one. Thirty leaves room for noise.
    expect(time(large)).toBeLessThan(30 * time(small) + 50);
  });
});
