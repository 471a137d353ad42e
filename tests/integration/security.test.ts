import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { issueToken, revokeApp } from "@/lib/domain/apps/tokens";
import { handleOperation } from "@/lib/transports/http/operation";
import { operations } from "@/lib/operations/registry";
import { call, expectError, makeUser, type Called, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { mcpClient } from "../helpers/mcp";
import { bodiesOf, fixtureOf, inputFields, isIdField, VALID, type Fixture } from "../helpers/security-table";

// The security cases of every operation, generated from the registry (the table of
// tests/helpers/security-table.ts): a new operation is covered as soon as it is registered, and
// fails until it has a valid body there. Over REST, and over MCP for the ownership cases; the
// owner's pages run the same table in owner-door.test.ts.

withDatabase();

const METADATA = 'resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/api/v1"';

/** A POST with exactly these headers and query string (call() always uses a clean URL). */
async function send(name: string, body: unknown, headers: Record<string, string>, query = ""): Promise<Called> {
  const req = new Request(`${config().baseUrl}/${name}${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const res = await handleOperation(req, name);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

function expectInvalidToken(res: Called) {
  expectError(res, 401, "unauthorized");
  const header = res.headers.get("www-authenticate") ?? "";
  expect(header.startsWith(`Bearer ${METADATA}`), header).toBe(true);
  expect(header).toContain('error="invalid_token"');
}

async function tokenFor(u: TestUser, opts: { ttlSeconds: number; audience: string[] }) {
  const { token } = await issueToken(await db(), { kind: "access", appId: u.appId, userId: u.id, scopes: ["email"], ...opts });
  return token;
}

describe.each(operations.map((op) => [op.name, op] as const))("%s", (name, op) => {
  let owner: TestUser;
  let fx: Fixture;
  const valid = () => bodiesOf(name, fx)[0];

  beforeAll(async () => {
    owner = await makeUser();
    fx = await fixtureOf(owner);
  });

  it("has a minimal valid body in this suite, accepted past authentication and validation", async () => {
    expect(VALID[name], `add "${name}" to VALID in tests/integration/security.test.ts`).toBeTypeOf("function");
    for (const b of bodiesOf(name, fx)) {
      const res = await call(name, b, { token: owner.token });
      expect([400, 401], JSON.stringify(res.body)).not.toContain(res.status);
    }
  });

  it("answers 401 without an Authorization header, pointing at the resource metadata, with no error=", async () => {
    const res = await send(name, valid(), {});
    expectError(res, 401, "unauthorized");
    expect(res.headers.get("www-authenticate")).toBe(`Bearer ${METADATA}`);
  });

  it.each(["Basic x", "Bearer", "Bearer garbage", `Bearer cto_at_${randomBytes(32).toString("base64url")}`, "Bearer a b"])(
    "answers 401 invalid_token to the header %s",
    async (authorization) => expectInvalidToken(await send(name, valid(), { authorization })),
  );

  it("never accepts a token in the query string", async () => {
    for (const param of ["access_token", "token"]) {
      const res = await send(name, valid(), {}, `?${param}=${encodeURIComponent(owner.token)}`);
      expectError(res, 401, "unauthorized");
      expect(res.headers.get("www-authenticate")).toBe(`Bearer ${METADATA}`);
    }
  });

  it("refuses an expired token", async () => {
    const token = await tokenFor(owner, { ttlSeconds: -60, audience: [config().baseUrl, config().mcpUrl] });
    expectInvalidToken(await call(name, valid(), { token }));
  });

  it("refuses a token issued only for the MCP server", async () => {
    const token = await tokenFor(owner, { ttlSeconds: 3600, audience: [config().mcpUrl] });
    expectInvalidToken(await call(name, valid(), { token }));
  });

  it("refuses a revoked token on the very next call", async () => {
    const u = await makeUser();
    const before = await call(name, valid(), { token: u.token });
    expect(before.status, JSON.stringify(before.body)).not.toBe(401);
    expect(await revokeApp(await db(), u.id, u.appId)).toBe(true);
    expectInvalidToken(await call(name, valid(), { token: u.token }));
  });

  it("answers 403 plan_required without a paid plan", async () => {
    const u = await makeUser({ plan: "none" });
    expectError(await call(name, valid(), { token: u.token }), 403, "plan_required");
  });

  it("answers 403 account_incomplete before the account is set up", async () => {
    const u = await makeUser({ complete: false });
    expectError(await call(name, valid(), { token: u.token }), 403, "account_incomplete");
  });

  const idFields = inputFields(op).filter(isIdField);
  if (idFields.length)
    it(`answers another user's ${idFields.join(" / ")} exactly like a missing one`, async () => {
      const covered = new Set(bodiesOf(name, fx).flatMap((b) => Object.keys(b)));
      expect(
        idFields.filter((k) => !covered.has(k)),
        `VALID.${name} must set every id field`,
      ).toEqual([]);
      const ownerItems = () =>
        Promise.all(
          ["post", "tweet", "series"].map(async (type) => (await call("fetch_item", { type, id: fx[type as keyof Fixture] }, { token: owner.token })).body),
        );
      const before = await ownerItems();
      // Publishing allowed, so that no switch answers before the ownership check.
      const stranger = await makeUser({ publishing: true });
      const own = bodiesOf(name, await fixtureOf(stranger));
      // The same table over MCP: a tool's refusal carries REST's error body.
      const client = await mcpClient(stranger.token);
      const overMcp = async (args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
        return { isError: r.isError, body: JSON.parse(r.content[0].text) };
      };
      for (const [i, b] of own.entries()) {
        // One field at a time points at the owner's item; the others stay the stranger's own.
        for (const k of idFields.filter((f) => f in b)) {
          const theirs = { ...b, [k]: bodiesOf(name, fx)[i][k] };
          const nobodys = { ...b, [k]: randomUUID() };
          const foreign = await call(name, theirs, { token: stranger.token });
          const missing = await call(name, nobodys, { token: stranger.token });
          expectError(foreign, 422, "action_failed");
          expect({ field: k, status: foreign.status, body: foreign.body }).toEqual({ field: k, status: missing.status, body: missing.body });
          const [mcpForeign, mcpMissing] = [await overMcp(theirs), await overMcp(nobodys)];
          expect({ field: k, ...mcpForeign }).toEqual({ field: k, isError: true, body: foreign.body });
          expect({ field: k, ...mcpMissing }).toEqual({ field: k, isError: true, body: missing.body });
        }
      }
      await client.close();
      expect(await ownerItems()).toEqual(before);
    });
});
