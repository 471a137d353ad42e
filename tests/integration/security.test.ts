import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { issueToken, revokeApp } from "@/lib/domain/apps/tokens";
import { handleOperation } from "@/lib/transports/http/operation";
import type { Operation } from "@/lib/operations/define";
import { operations } from "@/lib/operations/registry";
import { call, expectError, makeUser, type Called, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { listAccounts } from "@/lib/domain/accounts/accounts";
import { authAccounts } from "@/drizzle/schema";

// The security cases of every operation, generated from the registry: a new operation is
// covered as soon as it is registered, and fails here until it has a valid body below.

withDatabase();

/** Items of one user that bodies may point at. */
type Fixture = { post: string; tweet: string; series: string; topic: string; webhook: string; li: string; x: string };

/** A 2 x 2 PNG, base64. */
const PNG_2X2 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWNg6DgDQhAKACIOBVEyhxYyAAAAAElFTkSuQmCC";

const inTwoHours = () => new Date(Date.now() + 2 * 3600_000).toISOString();

/**
 * A minimal valid body per operation (several when one body cannot name every id field).
 * Ids point at the given user's items; the ownership test mixes two users' fixtures.
 */
const VALID: Record<string, (f: Fixture) => Record<string, unknown> | Record<string, unknown>[]> = {
  search_content: () => ({ query: "hello" }),
  fetch_item: (f) => ({ type: "post", id: f.post }),
  list_scheduled: () => ({}),
  get_profile_context: () => ({}),
  get_analytics: () => ({ area: "overview" }),
  get_post_metrics: (f) => ({ type: "post", id: f.post }),
  generate_post: (f) => ({ topic: "Shipping small things", series_topic_id: f.topic, account_id: f.li }),
  generate_tweet: (f) => [{ from_post_id: f.post }, { topic: "Shipping small things", series_topic_id: f.topic, account_id: f.x }],
  create_draft: (f) => [
    { type: "tweet", body: "A reply", post_draft_id: f.post, account_id: f.x },
    { type: "post", body: "For a topic", series_topic_id: f.topic, account_id: f.li },
  ],
  update_draft: (f) => ({ type: "post", id: f.post, body: "Edited", account_id: f.li }),
  upload_media: () => ({ data: PNG_2X2, content_type: "image/png", filename: "dot.png", alt_text: "A blue dot" }),
  delete_draft: (f) => ({ type: "tweet", id: f.tweet }),
  schedule_content: (f) => ({ type: "post", id: f.post, scheduled_for: inTwoHours() }),
  unschedule_content: (f) => ({ type: "post", id: f.post }),
  publish_now: (f) => ({ type: "post", id: f.post }),
  manage_queue: (f) => ({ account_id: f.li }),
  list_series: () => ({}),
  manage_series: (f) => [
    { action: "update", series_id: f.series, title: "Renamed" },
    { action: "update_topic", series_id: f.series, topic_id: f.topic, title: "Renamed topic" },
  ],
  list_webhooks: () => ({}),
  manage_webhooks: (f) => [
    { action: "update", webhook_id: f.webhook, description: "Renamed" },
    { action: "create", url: "https://hooks.example.com/contentio", events: ["post.published"] },
  ],
};

/** A post, a tweet against it, a series with one topic (made through the API itself), and a LinkedIn and an X account. */
async function fixtureOf(u: TestUser): Promise<Fixture> {
  const d = await db();
  for (const provider of ["linkedin", "twitter"])
    await d.insert(authAccounts).values({ userId: u.id, type: "oauth", provider, providerAccountId: `${provider}-${randomUUID()}`, access_token: "t" });
  const accounts = await listAccounts(d, u.id);
  const tweet = await call("create_draft", { type: "tweet", body: "My own words" }, { token: u.token });
  const series = await call("manage_series", { action: "create", title: "My series", topics: [{ title: "Part one" }] }, { token: u.token });
  const hook = await call("manage_webhooks", { action: "create", url: "https://hooks.example.com/mine", events: ["draft.created"] }, { token: u.token });
  expect([tweet.status, series.status, hook.status], JSON.stringify([tweet.body, series.body, hook.body])).toEqual([200, 200, 200]);
  return {
    post: tweet.body.linked_post_id,
    tweet: tweet.body.id,
    series: series.body.series.id,
    topic: series.body.topics[0].id,
    webhook: hook.body.webhook.id,
    li: accounts.find((a) => a.platform === "pronet")!.account_id,
    x: accounts.find((a) => a.platform === "micro")!.account_id,
  };
}

function bodiesOf(name: string, f: Fixture): Record<string, unknown>[] {
  const make = VALID[name];
  if (!make) throw new Error(`Operation "${name}" has no minimal valid body: add one to VALID in tests/integration/security.test.ts`);
  return ([] as Record<string, unknown>[]).concat(make(f));
}

/** Top-level field names of an operation's input, across union branches. */
function inputFields(op: Operation): string[] {
  const fields = new Set<string>();
  const visit = (s: unknown) => {
    if (!s || typeof s !== "object") return;
    const js = s as { properties?: object; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[] };
    for (const k of Object.keys(js.properties ?? {})) fields.add(k);
    for (const b of [...(js.anyOf ?? []), ...(js.oneOf ?? []), ...(js.allOf ?? [])]) visit(b);
  };
  visit(z.toJSONSchema(op.input, { io: "input", unrepresentable: "any" }));
  return [...fields];
}

// Fields naming one of the caller's items. confirmation_id names an approval, which is
// matched against the caller anyway (a foreign one is simply no approval).
const isIdField = (k: string) => (k === "id" || k.endsWith("_id")) && k !== "confirmation_id";

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
      for (const [i, b] of own.entries()) {
        // One field at a time points at the owner's item; the others stay the stranger's own.
        for (const k of idFields.filter((f) => f in b)) {
          const foreign = await call(name, { ...b, [k]: bodiesOf(name, fx)[i][k] }, { token: stranger.token });
          const missing = await call(name, { ...b, [k]: randomUUID() }, { token: stranger.token });
          expectError(foreign, 422, "action_failed");
          expect({ field: k, status: foreign.status, body: foreign.body }).toEqual({ field: k, status: missing.status, body: missing.body });
        }
      }
      expect(await ownerItems()).toEqual(before);
    });
});
