import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { direct } from "@/app/api/v1/[operation]/route";
import { direct as mcpDirect } from "@/app/mcp/route";
import { config } from "@/lib/core/config";
import { handleOperation } from "@/lib/transports/http/operation";
import { handleMcp } from "@/lib/transports/mcp/handler";
import { makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { lingerOnUnreadBodies } from "@/server/lingering-close.mjs";

// `npm start` gives API calls to the route file's `direct` export, which reads Node's request
// and writes Node's response; `next dev` and the tests give the same handler a web Request.
// Whatever the request, both must answer alike: same status, same headers, same body.

withDatabase();
let user: TestUser;
let server: http.Server;
let port: number;
beforeAll(async () => {
  user = await makeUser();
  server = http.createServer((req, res) => void direct(req, res, { operation: req.url!.split("/").at(-1)! }));
  // As npm start's server does: a body refused before it arrived whole is read and dropped
  // while the refusal goes out, so the client reads it instead of a reset mid-write (EPIPE).
  lingerOnUnreadBodies(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((r) => server.close(r)));

type Sent = { operation: string; method?: string; headers?: Record<string, string>; chunks?: string[] };
type Got = { status: number; headers: Record<string, string>; body: unknown };

// Headers that differ per request or per connection, not per answer.
const VARYING = new Set(["x-request-id", "date", "connection", "keep-alive", "content-length", "transfer-encoding"]);
// The budget left moves with every call.
const answerHeaders = (entries: Iterable<[string, string | string[] | undefined]>) =>
  Object.fromEntries(
    [...entries].filter(([k]) => !VARYING.has(k.toLowerCase())).map(([k, v]) => [k.toLowerCase(), String(v).replace(/;r=\d+;t=\d+$/, ";r=…")]),
  );
const parse = (text: string) => (text ? JSON.parse(text) : null);

/** Over a socket to the direct handler; each chunk is written on its own, a moment apart. */
function overNode({ operation, method = "POST", headers = {}, chunks = [] }: Sent): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: "127.0.0.1", path: `/api/v1/${operation}`, method, headers });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        // A whole answer goes out with its length, never chunked.
        const framing = { chunked: res.headers["transfer-encoding"], length: res.headers["content-length"] };
        expect(framing).toEqual({ chunked: undefined, length: String(Buffer.byteLength(text)) });
        resolve({ status: res.statusCode!, headers: answerHeaders(Object.entries(res.headers)), body: parse(text) });
      });
    });
    req.on("error", reject);
    const queue = [...chunks];
    const next = () => (queue.length ? req.write(queue.shift(), () => setTimeout(next, 5)) : req.end());
    next();
  });
}

async function overWeb({ operation, method = "POST", headers = {}, chunks = [] }: Sent): Promise<Got> {
  const hasBody = method !== "GET" && method !== "HEAD";
  const res = await handleOperation(new Request(`${config().baseUrl}/${operation}`, { method, headers, ...(hasBody && { body: chunks.join("") }) }), operation);
  return { status: res.status, headers: answerHeaders(res.headers), body: parse(await res.text()) };
}

const auth = () => ({ authorization: `Bearer ${user.token}`, "content-type": "application/json" });
// Two of these make a body over every operation's cap.
const half = "x".repeat(200_000);
const tooBig = ['{"type":"post","body":"', half, half, '"}'];

describe("API calls straight from Node's request (npm start)", () => {
  it("answer exactly as the web Request path does, for good and bad requests alike", async () => {
    const created = await overNode({ operation: "create_draft", headers: auth(), chunks: ['{"type":"post",', '"body":"Sent in two pieces."}'] });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    const cases: Sent[] = [
      { operation: "fetch_item", headers: auth(), chunks: [JSON.stringify({ type: "post", id })] },
      { operation: "fetch_item", headers: auth(), chunks: ['{"type":"po', 'st","id":"', id, '"}'] },
      { operation: "fetch_item", headers: { ...auth(), "content-type": "text/plain" }, chunks: ["{}"] },
      { operation: "fetch_item", headers: auth(), chunks: ["{not json"] },
      { operation: "fetch_item", headers: auth(), chunks: [] },
      { operation: "fetch_item", headers: auth(), chunks: ['{"type":"post","id":"', id, '","extra":1}'] },
      { operation: "fetch_item", method: "GET", headers: auth() },
      { operation: "fetch_item", headers: { "content-type": "application/json" }, chunks: ["{}"] },
      { operation: "fetch_item", headers: { ...auth(), authorization: "Bearer cto_at_not-a-token" }, chunks: ["{}"] },
      { operation: "fetch_item", headers: { ...auth(), authorization: "Basic abc" }, chunks: ["{}"] },
      { operation: "no_such_operation", headers: auth(), chunks: ["{}"] },
      // Over the cap: declared (refused unread), and streamed without a declared length.
      { operation: "create_draft", headers: { ...auth(), "content-length": String(tooBig.join("").length) }, chunks: tooBig },
      { operation: "create_draft", headers: auth(), chunks: tooBig },
    ];
    for (const c of cases) {
      const [node, web] = [await overNode(c), await overWeb(c)];
      expect({ case: c.chunks?.join("").slice(0, 60), ...node }).toEqual({ case: c.chunks?.join("").slice(0, 60), ...web });
    }
    // The answers above really differ from each other: the comparison saw every kind.
    const statuses = new Set(await Promise.all(cases.map(async (c) => (await overNode(c)).status)));
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 405]);
  });

  it("treat a client that hangs up mid-body as a bad request, not the database failing, and keep nothing of it", async () => {
    const answers: number[] = [];
    const watched = http.createServer((req, res) => {
      // The answer's status, even though it can no longer be delivered.
      const writeHead = res.writeHead.bind(res) as (status: number, headers: Record<string, string>) => http.ServerResponse;
      res.writeHead = ((status: number, headers: Record<string, string>) => (answers.push(status), writeHead(status, headers))) as typeof res.writeHead;
      void direct(req, res, { operation: "create_draft" });
    });
    await new Promise<void>((r) => watched.listen(0, "127.0.0.1", r));
    const before = await overNode({ operation: "search_content", headers: auth(), chunks: ['{"query":"Half"}'] });
    const req = http.request({
      port: (watched.address() as AddressInfo).port,
      host: "127.0.0.1",
      path: "/api/v1/create_draft",
      method: "POST",
      headers: auth(),
    });
    req.on("error", () => {});
    req.write('{"type":"post","body":"Half a post');
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    for (let i = 0; i < 100 && !answers.length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(answers).toEqual([400]);
    const after = await overNode({ operation: "search_content", headers: auth(), chunks: ['{"query":"Half"}'] });
    expect(after.body).toEqual(before.body);
    await new Promise((r) => watched.close(r));
  });
});

// MCP's route under `npm start` is given a web Request without a body, its body read from
// Node's request by the same reader as the API's (lib/transports/http/node.ts, serveAsWeb); `next dev`
// and the tests give the handler a web Request with its body. Both must answer alike.
describe("MCP calls straight from Node's request (npm start)", () => {
  let mcpServer: http.Server;
  let mcpPort: number;
  beforeAll(async () => {
    mcpServer = http.createServer((req, res) => void mcpDirect(req, res));
    lingerOnUnreadBodies(mcpServer);
    await new Promise<void>((r) => mcpServer.listen(0, "127.0.0.1", r));
    mcpPort = (mcpServer.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => mcpServer.close(r)));

  type McpSent = { method?: string; headers?: Record<string, string>; chunks?: string[] };
  const mcpAuth = () => ({
    authorization: `Bearer ${user.token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
  });

  function mcpOverNode({ method = "POST", headers = {}, chunks = [] }: McpSent): Promise<Got> {
    return new Promise((resolve, reject) => {
      const req = http.request({ port: mcpPort, host: "127.0.0.1", path: "/mcp", method, headers });
      req.on("response", (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: answerHeaders(Object.entries(res.headers)), body: parse(text) }));
      });
      req.on("error", reject);
      const queue = [...chunks];
      const next = () => (queue.length ? req.write(queue.shift(), () => setTimeout(next, 5)) : req.end());
      next();
    });
  }

  async function mcpOverWeb({ method = "POST", headers = {}, chunks = [] }: McpSent): Promise<Got> {
    const hasBody = method !== "GET" && method !== "HEAD";
    const res = await handleMcp(new Request(config().mcpUrl, { method, headers, ...(hasBody && { body: chunks.join("") }) }));
    return { status: res.status, headers: answerHeaders(res.headers), body: parse(await res.text()) };
  }

  const list = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });

  it("answer exactly as the web Request path does, for good and bad requests alike", async () => {
    const cases: McpSent[] = [
      { headers: mcpAuth(), chunks: [list] },
      { headers: mcpAuth(), chunks: [list.slice(0, 20), list.slice(20)] },
      { headers: mcpAuth(), chunks: ["{not json"] },
      { headers: mcpAuth(), chunks: [] },
      { method: "GET", headers: mcpAuth() },
      { headers: { ...mcpAuth(), authorization: "Bearer cto_at_not-a-token" }, chunks: [list] },
      { headers: { ...mcpAuth(), origin: "https://elsewhere.example" }, chunks: [list] },
      // Over the cap of a message that is not an upload, sent without a declared length.
      { headers: mcpAuth(), chunks: ['{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"x":"', half, half, '"}}'] },
    ];
    for (const c of cases) {
      const [node, web] = [await mcpOverNode(c), await mcpOverWeb(c)];
      expect({ case: c.chunks?.join("").slice(0, 60), ...node }).toEqual({ case: c.chunks?.join("").slice(0, 60), ...web });
    }
    const statuses = new Set(await Promise.all(cases.map(async (c) => (await mcpOverNode(c)).status)));
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 405, 413]);
  });

  it("answer a client that hangs up mid-body as a bad request", async () => {
    const answers: number[] = [];
    // The answer's status, even though it can no longer be delivered.
    const watched = http.createServer((req, res) => void mcpDirect(req, res).then(() => answers.push(res.statusCode)));
    await new Promise<void>((r) => watched.listen(0, "127.0.0.1", r));
    const req = http.request({ port: (watched.address() as AddressInfo).port, host: "127.0.0.1", path: "/mcp", method: "POST", headers: mcpAuth() });
    req.on("error", () => {});
    req.write('{"jsonrpc":"2.0","id":5,"method":"tools/li');
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    for (let i = 0; i < 100 && !answers.length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(answers).toEqual([400]);
    await new Promise((r) => watched.close(r));
  });
});
