import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// direct-routes.mjs hands `npm start`'s API and MCP requests to the route files' handlers as
// web Requests. Here the handlers are stand-ins in a build directory of their own, so what is
// checked is the adapter itself: the Request the handler gets, and its signal, which must abort
// when the client hangs up (an MCP call waiting for the owner's approval stops then) and only then.

type Seen = { isRequest: boolean; body: string; operation: string; aborted: boolean; abortedAfterAnswer?: boolean };
const g = globalThis as unknown as { __directSeen: Seen[]; __directRelease?: () => void };

const HANDLER = `
exports.routeModule = { userland: { POST: async (req, ctx) => {
  const seen = { isRequest: req instanceof Request, body: await req.text(), operation: (await ctx.params).operation, aborted: false };
  globalThis.__directSeen.push(seen);
  if (seen.operation === "wait") {
    await new Promise((resolve) => {
      req.signal.addEventListener("abort", () => { seen.aborted = true; resolve(); });
      setTimeout(resolve, 3000);
    });
    return new Response("too late");
  }
  setTimeout(() => { seen.abortedAfterAnswer = req.signal.aborted; globalThis.__directRelease?.(); }, 200);
  return Response.json({ ok: true });
} } };
`;

let dir: string;
let server: http.Server;
let origin: string;
beforeAll(async () => {
  g.__directSeen = [];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "direct-routes-"));
  const routeDir = path.join(dir, ".next", "server", "app", "api", "v1", "[operation]");
  fs.mkdirSync(routeDir, { recursive: true });
  fs.writeFileSync(path.join(routeDir, "route.js"), HANDLER);
  const { directRoute } = (await import(path.join(process.cwd(), "direct-routes.mjs"))) as {
    directRoute: (dir: string, origin: string) => (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  };
  server = http.createServer((req, res) => {
    if (!directRoute(dir, origin)(req, res)) res.writeHead(404).end();
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
  it("give the handler a web Request with the body; its signal stays quiet after a finished answer", async () => {
    const released = new Promise<void>((r) => (g.__directRelease = r));
    const res = await fetch(`${origin}/api/v1/fetch_item`, { method: "POST", body: '{"id":"x"}', headers: { "content-type": "application/json" } });
    expect(await res.json()).toEqual({ ok: true });
    await released;
    expect(g.__directSeen.at(-1)).toEqual({ isRequest: true, body: '{"id":"x"}', operation: "fetch_item", aborted: false, abortedAfterAnswer: false });
  });

  it("abort the request's signal when the client hangs up", async () => {
    const req = http.request(`${origin}/api/v1/wait`, { method: "POST", headers: { "content-type": "application/json" } });
    req.on("error", () => {});
    req.end("{}");
    await until(() => g.__directSeen.some((s) => s.operation === "wait"));
    const seen = g.__directSeen.find((s) => s.operation === "wait")!;
    expect(seen.aborted).toBe(false);
    req.destroy();
    await until(() => seen.aborted, 1500);
  });
});
