import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "@/lib/adapters/platforms/http";
import { request } from "@/lib/adapters/platforms/request";
import { withConfig } from "../helpers/env";
import { lateListener } from "../helpers/net";

// The platforms' HTTP client on loopback: what a platform (or whoever answers in its place)
// can make it do with its answer. send() reads the publish timeout from the configuration;
// request() is given its own.
withConfig({ PUBLISH_TIMEOUT_MS: "300" });
let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/huge") {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < 20 * 1024 * 1024 && res.write(chunk)) sent += chunk.byteLength;
        if (sent < 20 * 1024 * 1024) res.once("drain", pump);
        else res.end();
      };
      res.on("error", () => {});
      return pump();
    }
    if (req.url === "/echo") {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      return void req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(Buffer.concat(chunks)));
    }
    if (req.url === "/trickle") {
      // Headers at once, then a byte now and then, never the end.
      res.writeHead(200, { "content-type": "application/json" }).write("[");
      const t = setInterval(() => res.write(" "), 50);
      return void res.on("close", () => clearInterval(t));
    }
    if (req.url === "/moved") return void res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
    res.writeHead(201, { "x-restli-id": "urn:li:share:1" }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  // Keep-alive connections the client still holds are closed rather than waited for.
  server.closeAllConnections();
  return new Promise((r) => server.close(r));
});

describe("the platforms' HTTP client", () => {
  it("reads an ordinary answer with its status and headers", async () => {
    const a = await request(`${base}/ok`, { method: "POST", headers: {}, body: "{}" }, 5000);
    expect(a.status).toBe(201);
    expect(a.headers.get("X-RestLi-Id")).toBe("urn:li:share:1");
    expect(await a.json()).toEqual({ ok: true });
  });

  it("sends a post's text whole, however many bytes its characters take", async () => {
    const text = JSON.stringify({ commentary: "Naïve café — 🚀 launch day, 日本語も".repeat(50) });
    const a = await request(`${base}/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: text }, 5000);
    expect(await a.text()).toBe(text);
  });

  it("refuses an answer larger than 4 MiB instead of holding it", async () => {
    await expect(request(`${base}/huge`, { method: "GET", headers: {} }, 10_000)).rejects.toThrow(/larger than/);
  });

  it("gives up on an answer that keeps arriving but never completes within the deadline", async () => {
    await expect(request(`${base}/trickle`, { method: "GET", headers: {} }, 400)).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("gives up at the deadline on a connection that is never ready, and says nothing was sent", async () => {
    // Accepts the connection and never says a word (a TLS handshake left unanswered): the
    // request cannot start, so the deadline must end it before the connection is ready
    // (undici's own connect timeout is 10 s), and a post can safely be tried again.
    const held = new Set<net.Socket>();
    const silent = net.createServer((s) => void held.add(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}/2/tweets`;
      await expect(request(url, { method: "POST", headers: {}, body: "{}" }, 300)).rejects.toMatchObject({ name: "NotStartedError" });
      await expect(send("X", url, { method: "POST", headers: {}, body: "{}" })).rejects.toMatchObject({ kind: "retry", message: /nothing was sent/ });
    } finally {
      for (const s of held) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it("writes nothing on a connection that is ready only after the deadline", async () => {
    // The request was already given up as "nothing was sent" (safe to post again), so when the
    // connection opens at last (here about a second after the 300 ms deadline), it must not
    // write the post: the platform would then create it a second time.
    const late = await lateListener();
    try {
      const url = `http://127.0.0.1:${late.port}/2/tweets`;
      await expect(request(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"text":"hi"}' }, 300)).rejects.toMatchObject({
        name: "NotStartedError",
      });
      late.release();
      await late.connected();
      await new Promise((r) => setTimeout(r, 300));
      expect(late.seen.bytes).toBe(0);
    } finally {
      await late.close();
    }
  });

  it("calls a deadline passed after sending unknown: the post may have been created", async () => {
    await expect(send("X", `${base}/trickle`, { method: "POST", headers: {}, body: "{}" })).rejects.toMatchObject({
      kind: "unknown",
      message: /may or may not/,
    });
  });

  it("does not follow a redirect", async () => {
    const a = await request(`${base}/moved`, { method: "GET", headers: {} }, 5000);
    expect(a.status).toBe(302);
    expect(a.ok).toBe(false);
  });
});
