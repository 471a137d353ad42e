import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { config } from "@/lib/core/config";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { handleOperation } from "@/lib/transports/http/operation";
import type { Operation } from "@/lib/operations/define";
import { operations } from "@/lib/operations/registry";
import { call, expectError, expectOk, makeUser, type Called, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";

// Malformed and near-valid requests against every operation of the registry. Whatever comes
// in: never a 5xx, every error in the error shape (docs/interface.md, Errors), every 200 in the output schema.
// 150 runs per operation keep the file quick enough for every run of the suite; a bench-style run
// raises it with FUZZ_RUNS=2000 (and FUZZ_SEED to replay a failure).
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

withDatabase();

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

let user: TestUser;
const ids: string[] = [];

// Lots of requests from one user: lift the per-user limit so the bodies get exercised.
withConfig({ RATE_LIMIT_SCALE: "1000000" });
beforeAll(async () => {
  user = await makeUser({ publishing: true });
  const tweet = await call("create_draft", { type: "tweet", body: "Fuzz target" }, { token: user.token });
  ids.push(tweet.body.id, tweet.body.linked_post_id);
});

const LONE_SURROGATES = ["\ud800", "\udfff", "a\ud83d", "\ude00b"];
const nested = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

/** Values that no schema here accepts, or accepts only at its edges. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...LONE_SURROGATES, "\u0000", "", " ", "NaN", "-1", "1e999", "null", "{}", "[]"),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.tuple(fc.constantFrom("x", "字", "😀", "<b>", "a\u0000"), fc.integer({ min: 500, max: 5000 })).map(([s, n]) => s.repeat(n)),
  fc.integer({ min: 10, max: 3000 }).map((d) => nested(d, "deep")),
  fc.double(),
);

/** A value shaped by the field's own JSON Schema, so that some requests get past validation. */
function plausible(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 3) return fc.jsonValue({ maxDepth: 2 });
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => plausible(b, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string":
      if (s.format === "uuid") return fc.oneof(fc.constantFrom(...ids), fc.uuid());
      if (s.format === "date-time") {
        const soon = fc.integer({ min: -86_400_000, max: 400 * 86_400_000 }).map((ms) => new Date(Date.now() + ms).toISOString());
        return fc.oneof(
          soon,
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom("2026-01-01T00:00:00", "2026-13-01T00:00:00Z"),
        );
      }
      if (s.format === "uri") return fc.constantFrom(`${config().origin}/media/a.png`, "https://evil.example/x.png", "javascript:alert(1)");
      return fc.oneof(fc.constantFrom("Hello world", "Launch day #ship"), fc.string({ maxLength: Math.min((s.maxLength ?? 300) + 2, 4000) }));
    case "integer":
    case "number":
      return fc.integer({ min: (s.minimum ?? -5) - 2, max: Math.min(s.maximum ?? 100, 1e6) + 2 });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(plausible(s.items, depth + 1), { maxLength: 6 });
    case "object":
      return fc.record(Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)])), { requiredKeys: [] });
  }
  return fc.jsonValue({ maxDepth: 2 });
}

type Variant = { fields: Record<string, JsonSchema>; required: string[] };

/** The shapes an operation's input accepts: one per branch of a top-level union. */
function variantsOf(op: Operation): Variant[] {
  // A branch may add only `required` to the fields beside it (an "at least one of" rule).
  const flat = (s: JsonSchema): JsonSchema[] => {
    const { anyOf, oneOf, ...base } = s;
    const branches = anyOf ?? oneOf;
    if (!branches) return [s];
    return branches.flatMap((b) =>
      flat({ ...base, ...b, properties: { ...base.properties, ...b.properties }, required: [...(base.required ?? []), ...(b.required ?? [])] }),
    );
  };
  const root = z.toJSONSchema(op.input, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return flat(root).map((s) => ({ fields: s.properties ?? {}, required: s.required ?? [] }));
}

/** `arb` in one case out of `odds`, else null. */
const sometimes = <T>(arb: fc.Arbitrary<T> | null, odds: number) =>
  arb ? fc.oneof({ arbitrary: fc.constant(null), weight: odds - 1 }, { arbitrary: arb, weight: 1 }) : fc.constant(null);

type Sent = { contentType: string; body: string | Uint8Array<ArrayBuffer> };

function objectBody({ fields, required }: Variant): fc.Arbitrary<string> {
  const names = Object.keys(fields);
  // A plausible object (some get through validation), then at most one hostile field and
  // at most one extra key (mass assignment, prototype keys).
  return fc
    .tuple(
      // Optional fields mostly absent (JSON.stringify drops undefined): each is another way to fail.
      fc.record(
        Object.fromEntries(
          names.map((k) => [
            k,
            required.includes(k)
              ? plausible(fields[k])
              : fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: plausible(fields[k]), weight: 1 }),
          ]),
        ),
      ),
      sometimes(names.length ? fc.tuple(fc.constantFrom(...names), hostile) : null, 3),
      sometimes(fc.tuple(fc.constantFrom("__proto__", "constructor", "prototype", "user_id", "status", "toString"), fc.jsonValue({ maxDepth: 2 })), 4),
    )
    .map(([obj, bad, extra]) => {
      const text = JSON.stringify(bad ? { ...obj, [bad[0]]: bad[1] } : obj);
      // Written into the text: JSON.stringify would drop a __proto__ key set on an object.
      return extra ? `{${JSON.stringify(extra[0])}:${JSON.stringify(extra[1])}${text === "{}" ? "}" : `,${text.slice(1)}`}` : text;
    });
}

function requests(op: Operation): fc.Arbitrary<Sent> {
  const body: fc.Arbitrary<string | Uint8Array<ArrayBuffer>> = fc.oneof(
    { arbitrary: fc.oneof(...variantsOf(op).map(objectBody)), weight: 6 },
    { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v) ?? "null"), weight: 1 },
    { arbitrary: hostile.map((v) => JSON.stringify(v) ?? ""), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 512 }).map((b) => new Uint8Array(b)), weight: 1 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 200 }), weight: 1 },
  );
  const contentType = fc.oneof(
    { arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8"), weight: 8 },
    {
      arbitrary: fc.constantFrom(
        "text/plain",
        "",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json-patch+json",
        "application/xml",
      ),
      weight: 1,
    },
  );
  return fc.record({ contentType, body });
}

async function send(name: string, s: Sent): Promise<Called> {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
  if (s.contentType) headers["content-type"] = s.contentType;
  const res = await handleOperation(new Request(`${config().baseUrl}/${name}`, { method: "POST", headers, body: s.body }), name);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

describe.each(operations.map((op) => [op.name, op] as const))("%s", (name, op) => {
  it(`survives ${RUNS} malformed requests`, { timeout: 60_000 + RUNS * 200 }, async () => {
    await fc.assert(
      fc.asyncProperty(requests(op), async (s) => {
        const res = await send(name, s);
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status === 200) {
          expectOk(res, op.output);
          return;
        }
        const code = res.body?.error?.code as ErrorCode;
        expect(ERROR_CODES, JSON.stringify(res.body)).toContain(code);
        expectError(res, ERROR_STATUS[code], code);
        if (s.contentType.split(";")[0] !== "application/json") expect(code).toBe("invalid_request");
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
