import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/adapters/db";
import { TestServer } from "./harness";

// The README's first command, as a newcomer runs it: a built app started as `npm start` does
// on a fresh database, the owner printed once, a token from `npm run admin`, then the API.
const server = new TestServer();
const run = promisify(execFile);
beforeAll(() => server.setup(), 600_000);
afterAll(() => server.teardown());

describe("the service started as the README says", () => {
  let token = "";
  let ownerPassword = "";
  const api = (op: string, body: unknown) => server.api(op, body, token);

  it("prints the owner's e-mail and where its password is once on the first start, never the password", async () => {
    const out = await server.start(/password: in \S+/);
    expect(out).toContain("e-mail:   owner@example.com");
    expect(out).toContain(`password: in ${server.ownerPasswordFile}`);
    ownerPassword = server.ownerPassword();
    expect(ownerPassword.length).toBeGreaterThanOrEqual(12);
    expect(out).not.toContain(ownerPassword);
    expect(fs.statSync(server.ownerPasswordFile).mode & 0o777).toBe(0o600);
    const list = await fetch(`${server.origin}/api/v1`).then((r) => r.json());
    expect(list.operations.map((o: { name: string }) => o.name)).toContain("fetch_item");
  });

  it("runs the admin command while the server holds the database: one JSON line, no banner, a token that works", async () => {
    // As an operator runs it (the bundle `npm run build` made), not through the test's tsx.
    const { stdout, stderr } = await run(process.execPath, ["server/admin.mjs", "issue-token", "--email", "owner@example.com"], { env: server.env });
    expect(stderr).toBe("");
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const issued = JSON.parse(stdout);
    expect(issued).toMatchObject({ token_type: "Bearer" });
    expect((await server.api("create_draft", { type: "post", body: "Made with a token from a running server." }, issued.access_token)).status).toBe(200);
    // Mistakes are told as before, with the usage, and change nothing.
    const bad = await run(process.execPath, ["server/admin.mjs", "set-plan", "--email", "owner@example.com", "--plan", "gold"], { env: server.env }).catch(
      (e) => e,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--plan must be one of/);
    // Only the service's user may reach the channel.
    expect(fs.statSync(path.join(server.env.DATA_DIR!, "admin")).mode & 0o777).toBe(0o700);
  });

  it("issues a token from the command line that the restarted server accepts", async () => {
    await server.stop();
    const { stdout } = await server.admin("issue-token", "--email", "owner@example.com");
    const issued = JSON.parse(stdout);
    expect(issued).toMatchObject({ token_type: "Bearer", expires_in: 30 * 24 * 3600 });
    token = issued.access_token;
    const out = await server.start();
    expect(out).not.toContain("password:"); // printed on the first start only
    const created = await api("create_draft", { type: "post", body: "Boring deploys are a feature." });
    expect(created.status).toBe(200);
    const fetched = await api("fetch_item", { type: "post", id: created.body.id });
    expect(fetched.body.body).toBe("Boring deploys are a feature.");
    const updated = await api("update_draft", { type: "post", id: created.body.id, title: "Boring deploys" });
    expect(updated.body.title).toBe("Boring deploys");
    const found = await api("search_content", { query: "deploy" });
    expect(found.body.results.map((r: { id: string }) => r.id)).toContain(created.body.id);
    const del = await api("delete_draft", { type: "post", id: created.body.id });
    expect(del.body.error.code).toBe("publishing_not_allowed");
  });

  it("serves the MCP endpoint and the OAuth metadata", async () => {
    const meta = await fetch(`${server.origin}/.well-known/oauth-authorization-server`).then((r) => r.json());
    expect(meta.issuer).toBe(server.origin);
    const mcp = await fetch(`${server.origin}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
      }),
    });
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get("mcp-session-id")).toBeTruthy();
  });

  // server.mjs answers the API and MCP routes itself (direct-routes.mjs), so what Next did
  // for them must still hold over a real socket: streamed bodies, limits, methods, headers.
  it("reads a body sent in chunks, and answers a body over the limit in the error shape on an open connection", async () => {
    const send = (path: string, chunks: string[], headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`${server.origin}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (d) => (body += d)).on("end", () => resolve({ status: res.statusCode!, body }));
        });
        req.on("error", reject);
        const next = () => (chunks.length ? req.write(chunks.shift(), () => setTimeout(next, 20)) : req.end());
        next();
      });
    const created = await send("/api/v1/create_draft", ['{"type":"post",', '"body":"Sent in ', 'three pieces."}']);
    expect(created.status).toBe(200);
    const stored = await api("fetch_item", { type: "post", id: JSON.parse(created.body).id });
    expect(stored.body.body).toBe("Sent in three pieces.");
    const big = await send("/api/v1/create_draft", ['{"type":"post","body":"', "x".repeat(200_000), "y".repeat(200_000), '"}']);
    expect(big.status).toBe(400);
    expect(JSON.parse(big.body).error.message).toBe("The request body is too large.");
    const wrongMethod = await fetch(`${server.origin}/api/v1/fetch_item`, { headers: { authorization: `Bearer ${token}` } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    expect((await wrongMethod.json()).error.code).toBe("method_not_allowed");
    const head = await fetch(`${server.origin}/api/v1/fetch_item`, { method: "HEAD" });
    expect(head.status).toBe(405); // Next's own HEAD, from the route's GET
    const unknown = await fetch(`${server.origin}/api/v1/no_such_operation`, { method: "POST" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("unknown_operation");
  });

  // Neither PGlite nor a PostgreSQL without autovacuum would learn how common a word is as
  // the store grows; the server gathers the planner's statistics itself (lib/adapters/db/statistics.ts).
  it("gathers the planner's statistics at start for a table that has grown past 2 MB", async () => {
    await server.stop();
    const d = await openDatabase({ url: server.env.DATABASE_URL, dataDir: server.env.DATA_DIR });
    try {
      await d.db.execute(sql`insert into post_drafts (user_id, title, body, status)
        select u.id, 'Notes ' || g, repeat('Weekly notes on shipping small. ', 10) || g, 'draft'
        from users u, generate_series(1, 6000) g where u.email = 'owner@example.com'`);
    } finally {
      await d.close();
    }
    const out = await server.start(/statistics gathered.*\n/);
    expect(out).toMatch(/"msg":"statistics gathered","tables":\[[^\]]*"post_drafts"/);
  });
});

/** The owner's session cookie, from next-auth's own credentials sign-in. */
async function signIn(email: string, password: string): Promise<string> {
  const csrf = await fetch(`${server.origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const res = await fetch(`${server.origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.join("; "), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: "/settings/connections" }),
  });
  jar.push(...res.headers.getSetCookie().map((c) => c.split(";")[0]));
  expect(jar.some((c) => c.includes("session-token="))).toBe(true);
  return jar.join("; ");
}
