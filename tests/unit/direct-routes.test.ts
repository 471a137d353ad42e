import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCappedBody } from "@/lib/transports/http/body";
import { serveAsWeb } from "@/lib/transports/http/node";

// direct-routes.mjs hands `npm start`'s API and MCP requests to their route files' `direct`
// export, with Node's own request. Here the route files are stand-ins in a build directory of
// their own, so what is checked is the adapter itself: which requests reach `direct`, with
// which parameters; and, for MCP, whose stand-in goes through the same bridge as the real
// route (lib/transports/http/node.ts, serveAsWeb), the Request the handler gets, its body (read from
// Node's request by the one reader) and its signal, which must abort when the client hangs
// up (an MCP call waiting for the owner's approval stops then) and only then.

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
type Seen = { isRequest: boolean; body: string; wait: boolean; aborted: boolean; abortedAfterAnswer?: boolean };
const g = globalThis as unknown as {
  __directSeen: Seen[];
  __directRelease?: () => void;
  __serveAsWeb: typeof serveAsWeb;
  __readCappedBody: typeof readCappedBody;
};

const MCP_HANDLER = `
const web = () => new Response("web handler", { status: 500 });
exports.routeModule = { userland: { POST: web, direct: (req, res) => globalThis.__serveAsWeb(req, res, async (req, source) => {
  const body = Buffer.from(await globalThis.__readCappedBody(source, 1024)).toString();
  const seen = { isRequest: req instanceof Request, body, wait: body === "wait", aborted: false };
  globalThis.__directSeen.push(seen);
  if (seen.wait) {
    await new Promise((resolve) => {
      req.signal.addEventListener("abort", () => { seen.aborted = true; resolve(); });
      setTimeout(resolve, 3000);
    });
    return new Response("too late");
  }
  setTimeout(() => { seen.abortedAfterAnswer = req.signal.aborted; globalThis.__directRelease?.(); }, 200);
  return Response.json({ ok: true });
}) } };
`;

// The API's stand-in answers through `direct` only; its web handlers say which methods it
// has. Like Next's route module for a file that imports an ESM package kept outside the bundle
// (drizzle-orm), its handlers are there only once `ensureUserland()` has loaded them.
const API_HANDLER = `
const web = () => new Response("web handler", { status: 500 });
const userland = { POST: web, GET: web, direct: async (req, res, params) => {
  let body = "";
  for await (const chunk of req) body += chunk;
  res.writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ isNodeRequest: !(req instanceof Request), method: req.method, body, params }));
} };
let loaded = false;
exports.routeModule = {
  ensureUserland: () => new Promise((resolve) => setTimeout(() => resolve(loaded = true), 200)),
  get userland() {
    if (!loaded) throw new Error("The lazy module is still loading.");
    return userland;
  },
};
`;

let dir: string;
let server: http.Server;
let origin: string;
beforeAll(async () => {
  g.__directSeen = [];
  g.__serveAsWeb = serveAsWeb;
  g.__readCappedBody = readCappedBody;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "direct-routes-"));
  const app = path.join(dir, ".next", "server", "app");
  for (const [route, source] of [
    ["mcp", MCP_HANDLER],
    ["api/v1/[operation]", API_HANDLER],
  ]) {
    fs.mkdirSync(path.join(app, route), { recursive: true });
    fs.writeFileSync(path.join(app, route, "route.js"), source);
  }
  const { directRoute } = (await import(path.join(process.cwd(), "server", "direct-routes.mjs"))) as {
    directRoute: (dir: string, toNext: Handler) => (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  };
  const toNext: Handler = (req, res) => void res.writeHead(404, { "x-answered-by": "next" }).end();
  server = http.createServer((req, res) => {
    if (!directRoute(dir, toNext)(req, res)) toNext(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const until = async (ok: () => boolean, ms = 2000) => {
  for (const start = Date.now(); !ok(); await new Promise((r) => setTimeout(r, 10))) if (Date.now() - start > ms) throw new Error("timed out");
};

describe("direct routes", () => {
  it("give the MCP handler a web Request and its body; its signal stays quiet after a finished answer", async () => {
    const released = new Promise<void>((r) => (g.__directRelease = r));
    const res = await fetch(`${origin}/mcp`, { method: "POST", body: '{"id":"x"}', headers: { "content-type": "application/json" } });
    expect(await res.json()).toEqual({ ok: true });
    await released;
    expect(g.__directSeen.at(-1)).toEqual({ isRequest: true, body: '{"id":"x"}', wait: false, aborted: false, abortedAfterAnswer: false });
  });

  it("abort the request's signal when the client hangs up", async () => {
    const req = http.request(`${origin}/mcp`, { method: "POST", headers: { "content-type": "application/json" } });
    req.on("error", () => {});
    req.end("wait");
    await until(() => g.__directSeen.some((s) => s.wait));
    const seen = g.__directSeen.find((s) => s.wait)!;
    expect(seen.aborted).toBe(false);
    req.destroy();
    await until(() => seen.aborted, 1500);
  });

  it("give API requests to the route's direct handler as Node's own, for the methods the route has", async () => {
    // The first two arrive while the handlers load: each waits, and the method the route
    // does not export still goes to Next.
    const [res, early] = await Promise.all([
      fetch(`${origin}/api/v1/fetch_item?x=1`, { method: "POST", body: '{"id":"x"}' }),
      fetch(`${origin}/api/v1/fetch_item`, { method: "DELETE" }),
    ]);
    expect(await res.json()).toEqual({ isNodeRequest: true, method: "POST", body: '{"id":"x"}', params: { operation: "fetch_item" } });
    expect([early.status, early.headers.get("x-answered-by")]).toEqual([404, "next"]);
    const get = await fetch(`${origin}/api/v1/list_series`);
    expect(await get.json()).toMatchObject({ method: "GET", params: { operation: "list_series" } });
    // Methods the route file does not export, and paths the API's pattern does not match, are Next's.
    for (const [method, url] of [
      ["DELETE", "/api/v1/fetch_item"],
      ["OPTIONS", "/api/v1/fetch_item"],
      ["POST", "/api/v1/fetch%5Fitem"],
      ["POST", "/api/v1/openapi.json"],
    ]) {
      expect((await fetch(`${origin}${url}`, { method })).status).toBe(404);
    }
  });
});
