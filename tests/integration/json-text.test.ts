import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { rowsOf } from "@/lib/adapters/db/rows";
import { jsonText } from "@/drizzle/schema/columns";
import { redactSecrets } from "@/lib/core/redact";
import { withDatabase } from "../helpers/db";

withDatabase();

// What jsonb columns and JSON parameters are written with: JSON that PostgreSQL takes whatever
// the strings hold, equal to JSON.stringify but for lone surrogates and NUL, which become U+FFFD.
const stored = async (value: unknown) => rowsOf<{ j: unknown }>(await (await db()).execute(sql`select ${jsonText(value)}::jsonb as j`))[0].j;

describe("jsonText", () => {
  it("turns each lone surrogate and NUL, in values and keys, into U+FFFD and nothing else", async () => {
    const cases: [unknown, unknown][] = [
      ["\ud800", "\ufffd"],
      ["\ud800\ud800x\udfff", "\ufffd\ufffdx\ufffd"],
      ["😀 whole", "😀 whole"],
      ["a\u0000b\u0001", "a\ufffdb\u0001"],
      // Text that spells an escape is not one: a backslash, then "ud800".
      ["\\ud800", "\\ud800"],
      ["\\\ud800", "\\\ufffd"],
      ["\\\\ud800", "\\\\ud800"],
      [{ "\udc00": ["a\ud83d"] }, { "\ufffd": ["a\ufffd"] }],
    ];
    for (const [value, expected] of cases) {
      expect(JSON.parse(jsonText(value))).toEqual(expected);
      expect(await stored(value)).toEqual(expected);
    }
  });

  it("equals JSON.stringify for well-formed text, and PostgreSQL takes any text", async () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => jsonText(v) === JSON.stringify(v)),
      { numRuns: 500 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 30 }), async (s) => {
        expect(await stored({ s })).toEqual({ s: s.toWellFormed().replaceAll("\u0000", "\ufffd") });
      }),
      { numRuns: 100 },
    );
  });
});

describe("redactSecrets", () => {
  it("cuts before an emoji rather than through it, and keeps no NUL or control character", () => {
    const text = `${".".repeat(198)}😀 more`;
    const out = redactSecrets(text, 200);
    expect(out.isWellFormed()).toBe(true);
    expect(out).toBe(`${".".repeat(198)}…`);
    expect(redactSecrets(`${".".repeat(197)}😀 more`, 200)).toBe(`${".".repeat(197)}😀…`);
    expect(redactSecrets("a\u0000\u0007 b\ud800")).toBe("a b\ufffd");
  });
});
