import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import * as catchAll from "@/app/api/[...rest]/route";
import * as opRoute from "@/app/api/v1/[operation]/route";
import { config } from "@/lib/core/config";
import { openDatabase, useDatabase } from "@/lib/adapters/db";
import { ERROR_CODES } from "@/lib/core/errors";
import { handleOperation } from "@/lib/transports/http/operation";
import { call, expectError, makeUser, type Called } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { reconfigure } from "../helpers/env";
import { inProcessFetch } from "../helpers/mcp";
import { TcpProxy } from "../helpers/tcp-proxy";
import { tempDatabase, type TempDatabase } from "../helpers/temp-database";

// Every error code of lib/errors.ts, each produced by a real request and checked for its
// exact error body (docs/interface.md, Errors). The last test proves none was forgotten.

const database = withDatabase();
const seen = new Set<string>();
const expectErr = (res: Called, status: number, code: string) => {
  expectError(res, status, code);
  seen.add(code);
};
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const read = async (res: Response): Promise<Called> => {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
};
const viaRoute = async (method: "GET" | "PUT" | "PATCH" | "DELETE" | "POST" | "OPTIONS", operation: string, token?: string) => {
  const headers = { "content-type": "application/json", ...(token && { authorization: `Bearer ${token}` }) };
  const req = new Request(`${config().baseUrl}/${operation}`, { method, headers, body: method === "GET" || method === "OPTIONS" ? undefined : "{}" });
  return read(await opRoute[method](req, { params: Promise.resolve({ operation }) }));
};
/** A POST with a body of our choosing (a stream, a declared length, ...). */
const post = async (init: RequestInit & { duplex?: "half" }, token: string) => {
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) };
  return read(await handleOperation(new Request(`${config().baseUrl}/create_draft`, { method: "POST", ...init, headers }), "create_draft"));
};

describe("routing", () => {
  it.each(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"] as const)("answers %s on an operation with 405 and Allow: POST", async (method) => {
    const u = await makeUser();
    for (const token of [undefined, u.token]) {
      const res = await viaRoute(method, "fetch_item", token);
      expectErr(res, 405, "method_not_allowed");
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("tells an unknown operation (unknown_operation) from an unknown address (not_found)", async () => {
    const u = await makeUser();
    expectErr(await viaRoute("POST", "nope", u.token), 404, "unknown_operation");
    // /api/v2/fetch_item and /api/v1/a/b both land on the catch-all route, for every method.
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const) expectErr(await read(await catchAll[method]()), 404, "not_found");
  });
});

describe("bodies", () => {
  it("answers invalid_json to broken JSON and to an empty body", async () => {
    const u = await makeUser();
    for (const raw of ['{"type": "post",', "", "   ", "{'a': 1}"]) expectErr(await call("create_draft", null, { token: u.token, raw }), 400, "invalid_json");
  });

  it("refuses a body that is not UTF-8, or declared in another charset, instead of saving its letters as U+FFFD", async () => {
    const u = await makeUser();
    const latin1 = Buffer.concat([Buffer.from('{"type":"post","body":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    expectErr(await post({ body: latin1 }, u.token), 400, "invalid_json");
    const declared = await post({ body: latin1, headers: { "content-type": "application/json; charset=iso-8859-1" } }, u.token);
    expectErr(declared, 400, "invalid_request");
    expect(declared.body.error.details[0].path).toBe("Content-Type");
    const utf8 = await post({ body: Buffer.from('{"type":"post","body":"café"}'), headers: { "content-type": "application/json; charset=UTF-8" } }, u.token);
    expect(utf8.status).toBe(200);
    const ascii = await post(
      { body: Buffer.from('{"type":"post","body":"plain"}'), headers: { "content-type": "application/json; charset=us-ascii" } },
      u.token,
    );
    expect(ascii.status).toBe(200);
    expect((await call("fetch_item", { type: "post", id: utf8.body.id }, { token: u.token })).body.body).toBe("café");
  });

  it("answers invalid_request to a body that is not application/json", async () => {
    const u = await makeUser();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp"]) {
      const res = await call("search_content", {}, { token: u.token, headers: { "content-type": type } });
      expectErr(res, 400, "invalid_request");
      expect(res.body.error.details[0].path).toBe("Content-Type");
    }
  });

  it("names each unknown field", async () => {
    const u = await makeUser();
    const res = await call("create_draft", { type: "post", body: "x", user_id: randomUUID(), status: "published" }, { token: u.token });
    expectErr(res, 400, "invalid_request");
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { path: "user_id", message: "Unknown field" },
        { path: "status", message: "Unknown field" },
      ]),
    );
  });

  it("refuses a body over 256 KiB whether its length is declared or streamed", async () => {
    const u = await makeUser();
    const big = JSON.stringify({ type: "post", body: "x".repeat(256 * 1024) });
    expectErr(await post({ body: big, headers: { "content-length": String(Buffer.byteLength(big)) } }, u.token), 400, "invalid_request");
    expectErr(await post({ body: big }, u.token), 400, "invalid_request");
    // An endless stream: the server must stop reading soon after the cap.
    let sent = 0;
    const endless = new ReadableStream({ pull: (c) => void ((sent += 16384), c.enqueue(new Uint8Array(16384).fill(32))) });
    expectErr(await post({ body: endless, duplex: "half" }, u.token), 400, "invalid_request");
    expect(sent).toBeLessThan(512 * 1024);
  });

  it("refuses a NUL character in a string and deep nesting", async () => {
    const u = await makeUser();
    const nul = await call("create_draft", { type: "post", body: "a\u0000b" }, { token: u.token });
    expectErr(nul, 400, "invalid_request");
    expect(nul.body.error.details[0].path).toBe("body");
    for (const depth of [100, 100_000]) {
      const raw = `{"type":"post","body":"x","title":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      expectErr(await call("create_draft", null, { token: u.token, raw }), 400, "invalid_request");
    }
  });

  it("refuses half an emoji (an unpaired UTF-16 surrogate) anywhere, and stores nothing", async () => {
    // JSON allows "\ud800"; PostgreSQL's jsonb does not, and text would silently hold U+FFFD.
    const u = await makeUser({ publishing: true });
    const tweet = await call("create_draft", { type: "tweet", body: "Whole" }, { token: u.token });
    const sent = [
      ["create_draft", `{"type":"tweet","body":"hi","thread":["\\ud800"]}`, "thread.0"],
      ["create_draft", `{"type":"post","body":"Launch \\ud83d day"}`, "body"],
      ["update_draft", `{"type":"tweet","id":"${tweet.body.id}","thread":["ok","\\ude00 b"]}`, "thread.1"],
      ["create_draft", `{"type":"post","body":"x","\\ud800":1}`, "\ud800"],
    ] as const;
    for (const [operation, raw, path] of sent) {
      const res = await call(operation, null, { token: u.token, raw });
      expectErr(res, 400, "invalid_request");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path.toWellFormed());
    }
    const all = await call("search_content", { types: ["post", "tweet"] }, { token: u.token });
    expect(all.body.results.map((r: { id: string }) => r.id).sort()).toEqual([tweet.body.id, tweet.body.linked_post_id].sort());
    const kept = await call("fetch_item", { type: "tweet", id: tweet.body.id }, { token: u.token });
    expect(kept.body.body).toBe("Whole");
    expect(kept.body.thread).toBeUndefined(); // still one tweet, no thread
  });
});

describe("authorisation and actions", () => {
  it("answers 401, 403 plan_required and account_incomplete", async () => {
    expectErr(await call("search_content", {}, { token: null }), 401, "unauthorized");
    expectErr(await call("search_content", {}, { token: (await makeUser({ plan: "none" })).token }), 403, "plan_required");
    expectErr(await call("search_content", {}, { token: (await makeUser({ complete: false })).token }), 403, "account_incomplete");
  });

  it("answers publishing_not_allowed, then confirmation_required with the exact action", async () => {
    const off = await makeUser();
    const draft = await call("create_draft", { type: "post", body: "Keep me\nplease" }, { token: off.token });
    expectErr(await call("delete_draft", { type: "post", id: draft.body.id }, { token: off.token }), 403, "publishing_not_allowed");
    const on = await makeUser({ publishing: true });
    const mine = await call("create_draft", { type: "post", body: "Keep me\nplease" }, { token: on.token });
    const res = await call("delete_draft", { type: "post", id: mine.body.id }, { token: on.token });
    expectErr(res, 403, "confirmation_required");
    const c = res.body.error.confirmation;
    expect(c).toEqual({
      id: expect.stringMatching(UUID_RE),
      url: `${config().origin}/confirm/${c.id}`,
      expires_at: expect.any(String),
      action: { operation: "delete_draft", type: "post", id: mine.body.id, title: "Keep me", scheduled_for: null },
    });
    expect((await call("fetch_item", { type: "post", id: mine.body.id }, { token: on.token })).status).toBe(200);
  });

  it("answers action_failed for a missing item", async () => {
    const u = await makeUser();
    expectErr(await call("fetch_item", { type: "post", id: randomUUID() }, { token: u.token }), 422, "action_failed");
  });

  it("answers rate_limited past the plan's limit, with Retry-After and RateLimit headers", async () => {
    const restore = reconfigure({ RATE_LIMIT_SCALE: "0.1" }); // plus: 30 × 0.1 = 3 a minute
    try {
      const u = await makeUser({ plan: "plus" });
      const answers: Called[] = [];
      for (let i = 0; i < 4; i++) answers.push(await call("fetch_item", { type: "post", id: i ? randomUUID() : "x" }, { token: u.token }));
      expect(answers.map((a) => a.status)).toEqual([400, 422, 422, 429]);
      expectErr(answers[3], 429, "rate_limited");
      expect(answers[3].headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      for (const a of answers) {
        expect(a.headers.get("ratelimit-policy")).toBe('"per-user";q=3;w=60');
        expect(a.headers.get("ratelimit")).toMatch(/^"per-user";r=\d+;t=\d+$/);
      }
      const ok = await call("search_content", {}, { token: (await makeUser({ plan: "plus" })).token });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit")).toMatch(/^"per-user";r=2;t=\d+$/);
    } finally {
      restore();
    }
  });
});

describe("failures", () => {
  it("answers internal_error without internals, with the request id in the header and the log", async () => {
    const u = await makeUser();
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (writes.push(String(chunk)), true));
    const restore = reconfigure({ LOG_LEVEL: "error" });
    await database.current().db.execute(sql`alter table ideas rename to ideas_gone`);
    try {
      const res = await call("fetch_item", { type: "idea", id: randomUUID() }, { token: u.token });
      expectErr(res, 500, "internal_error");
      const id = res.headers.get("x-request-id")!;
      expect(id).toMatch(UUID_RE);
      expect(Object.keys(res.body.error)).toEqual(["code", "message", "hint", "docs"]);
      expect(`${res.body.error.message} ${res.body.error.hint}`).not.toMatch(/ideas|select|relation|42P01|stack|error|\.ts\b|\n/i);
      expect(res.body.error.hint).toContain(id);
      const line = writes.find((w) => w.includes(id));
      expect(line, writes.join("")).toBeDefined();
      expect(JSON.parse(line!).level).toBe("error");
      expect(writes.join("")).not.toContain(u.token);
    } finally {
      await database.current().db.execute(sql`alter table ideas_gone rename to ideas`);
      spy.mockRestore();
      restore();
    }
  });

  it("logs a failed query's SQL but never what the user wrote", async () => {
    const u = await makeUser();
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (writes.push(String(chunk)), true));
    const restore = reconfigure({ LOG_LEVEL: "error" });
    await database.current().db.execute(sql`alter table post_drafts rename to post_drafts_gone`);
    try {
      const res = await call("create_draft", { type: "post", body: "my private words 7f3a" }, { token: u.token });
      expectErr(res, 500, "internal_error");
      const line = writes.find((w) => w.includes(res.headers.get("x-request-id")!))!;
      expect(JSON.parse(line).query).toMatch(/insert into "post_drafts"/);
      expect(JSON.parse(line).code).toBe("42P01");
      expect(writes.join("")).not.toContain("7f3a");
      // Nor the database's own message, which can quote what users wrote.
      expect(line).not.toMatch(/does not exist/);
    } finally {
      await database.current().db.execute(sql`alter table post_drafts_gone rename to post_drafts`);
      spy.mockRestore();
      restore();
    }
  });

  describe("when PostgreSQL cannot be reached", () => {
    const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    let temp: TempDatabase | undefined;
    const proxy = new TcpProxy("127.0.0.1", 5432);
    afterAll(async () => {
      useDatabase(database.current());
      await proxy.stop();
      await temp?.drop();
    });

    it("answers 503 with Retry-After, over REST and MCP alike, and recovers by itself when it is back", async () => {
      temp = await tempDatabase(adminUrl);
      const port = await proxy.start();
      const proxied = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/${temp.name}` });
      useDatabase(proxied);
      try {
        const u = await makeUser();
        // Never used before the outage: its token must be looked up.
        const other = await makeUser();
        expect((await call("search_content", {}, { token: u.token })).status).toBe(200);
        await proxy.stop();
        const down = await call("search_content", {}, { token: u.token });
        expectErr(down, 503, "temporarily_unavailable");
        expect(down.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
        // MCP's front answers from the same presenter (lib/core/errors/present.ts): status, body, Retry-After.
        const mcp = await read(
          await inProcessFetch(config().mcpUrl, {
            method: "POST",
            headers: { authorization: `Bearer ${other.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
          }),
        );
        expect([mcp.status, mcp.body, mcp.headers.get("retry-after")]).toEqual([503, down.body, down.headers.get("retry-after")]);
        await proxy.start();
        expect((await call("search_content", {}, { token: u.token })).status).toBe(200);
      } finally {
        useDatabase(database.current());
        // Not awaited: after an outage postgres.js's end() waits out its whole 5 s timeout.
        void proxied.close().catch(() => {});
      }
    });
  });
});

it("produced every error code of lib/errors.ts", () => {
  expect(ERROR_CODES.filter((c) => !seen.has(c))).toEqual([]);
});
