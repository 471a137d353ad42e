import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { direct } from "@/app/api/v1/[operation]/route";
import { config } from "@/lib/core/config";
import { handleOperation } from "@/lib/transports/http/operation";
import { handleMcp } from "@/lib/transports/mcp/handler";
import { makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

// An upload's body may be tens of megabytes, and over MCP it is read before the tool is known.
// A client that opens many such requests and sends their bodies slowly would have the server
// hold all of them at once, bounded only by its per-minute budget. At most two such bodies of
// one user and four in all are read at once, REST and MCP together; one more is refused before
// the rest of it is read, as temporarily unavailable with Retry-After, in each surface's shape.

withDatabase();

// Past the usual 256 KiB cap, still far below an upload's.
const PAST_SMALL_CAP = "A".repeat(300 * 1024);
const encoder = new TextEncoder();

type Held = { response: Promise<Response>; pulled: () => number; finish: () => void; hangUp: () => void };

/** A body sent past the usual cap, then held open until `finish()` (or cut by `hangUp()`). */
function heldBody(start: string, end: string): { stream: ReadableStream<Uint8Array>; pulled: () => number; finish: () => void; hangUp: () => void } {
  let control!: ReadableStreamDefaultController<Uint8Array>;
  let sent = 0;
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      control = c;
      for (const part of [start, PAST_SMALL_CAP]) c.enqueue(encoder.encode(part));
    },
    pull() {
      sent++;
    },
  });
  const close = (how: () => void) => {
    if (!open) return;
    open = false;
    how();
  };
  return {
    stream,
    pulled: () => sent,
    finish: () => close(() => (control.enqueue(encoder.encode(end)), control.close())),
    hangUp: () => close(() => control.error(new Error("client hung up"))),
  };
}

const MCP_UPLOAD = [
  '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"upload_media","arguments":{"data":"',
  '","content_type":"application/pdf"}}}',
] as const;
const REST_UPLOAD = ['{"data":"', '","content_type":"application/pdf"}'] as const;

function mcpUpload(u: TestUser): Held {
  const b = heldBody(...MCP_UPLOAD);
  const response = handleMcp(
    new Request(config().mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${u.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
      },
      body: b.stream,
      duplex: "half",
    } as RequestInit),
  );
  return { response, ...b };
}

function restUpload(u: TestUser): Held {
  const b = heldBody(...REST_UPLOAD);
  const response = handleOperation(
    new Request(`${config().baseUrl}/upload_media`, {
      method: "POST",
      headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json" },
      body: b.stream,
      duplex: "half",
    } as RequestInit),
    "upload_media",
  );
  return { response, ...b };
}

/** The answer, or "still reading" when there is none within a while (the body is being read). */
const answered = (r: Promise<Response>, ms = 1500) => Promise.race([r, new Promise<"still reading">((ok) => setTimeout(() => ok("still reading"), ms))]);

async function expectMcpBusy(held: Held) {
  const res = await answered(held.response);
  expect(res, "a large body read while the bound was full").not.toBe("still reading");
  const r = res as Response;
  expect(r.status).toBe(503);
  expect(r.headers.get("retry-after")).toBe("5");
  expect(await r.json()).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringMatching(/^Temporarily unavailable/) }, id: null });
}

async function expectRestBusy(held: Held) {
  const res = await answered(held.response);
  expect(res, "a large body read while the bound was full").not.toBe("still reading");
  const r = res as Response;
  expect(r.status).toBe(503);
  expect(r.headers.get("retry-after")).toBe("5");
  expect((await r.json()).error).toMatchObject({ code: "temporarily_unavailable", message: expect.stringContaining("nothing was changed") });
}

/** Ends every held request and waits for its answer: their places are free again. */
async function endAll(held: Held[]) {
  for (const h of held) h.finish();
  return Promise.all(held.map((h) => h.response));
}

describe("large request bodies at once", () => {
  let a: TestUser;
  let b: TestUser;
  let c: TestUser;
  beforeAll(async () => {
    [a, b, c] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  });

  it("two of one user's large MCP bodies are read at once; a third is refused before it is read, and a small request still goes through", async () => {
    const held = [mcpUpload(a), mcpUpload(a)];
    for (const h of held) expect(await answered(h.response, 500)).toBe("still reading");
    const third = mcpUpload(a);
    await expectMcpBusy(third);
    // Not read past what arrived before the refusal.
    expect(third.pulled()).toBeLessThanOrEqual(1);
    // A small body is not held back.
    const small = await handleMcp(
      new Request(config().mcpUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      }),
    );
    expect(small.status).not.toBe(503);
    // Once one is answered, the user may send another.
    const [first] = await endAll([held[0]]);
    expect(first.status).toBe(200);
    expect(JSON.stringify(await first.json())).toMatch(/isError/); // the (made-up) file is refused by the tool itself
    const next = mcpUpload(a);
    expect(await answered(next.response, 500)).toBe("still reading");
    await endAll([held[1], next]);
  });

  it("four are read at once in the process, REST and MCP together; a client that hangs up gives its place back", async () => {
    const held = [mcpUpload(a), restUpload(a), mcpUpload(b), restUpload(b)];
    for (const h of held) expect(await answered(h.response, 300)).toBe("still reading");
    // A third user, within their own bound, waits for the process's.
    await expectMcpBusy(mcpUpload(c));
    await expectRestBusy(restUpload(c));
    held[0].hangUp();
    const cut = await held[0].response;
    expect(cut.status).toBe(400);
    const now = restUpload(c);
    expect(await answered(now.response, 500)).toBe("still reading");
    const answers = await endAll([...held.slice(1), now]);
    // Each was read to its end and answered by the operation (the made-up file is refused there).
    expect(answers.map((r) => r.status)).toEqual([400, 200, 400, 400]);
    expect((await answers[0].json()).error.message).toBe("The uploaded file was refused.");
  });

  it("bounds REST uploads read straight from Node's request (npm start) the same way", async () => {
    const server = http.createServer((req, res) => void direct(req, res, { operation: "upload_media" }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const open = () => {
      const req = http.request({
        port,
        host: "127.0.0.1",
        path: "/api/v1/upload_media",
        method: "POST",
        headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json" },
      });
      const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        req.on("response", (res) => {
          let body = "";
          res.on("data", (d) => (body += d)).on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on("error", reject);
      });
      req.write(REST_UPLOAD[0] + PAST_SMALL_CAP);
      return { req, response };
    };
    try {
      const held = [open(), open()];
      await new Promise((r) => setTimeout(r, 300));
      const third = open();
      const refused = await Promise.race([third.response, new Promise<null>((r) => setTimeout(() => r(null), 2000))]);
      expect(refused, "a large body read while the bound was full").not.toBeNull();
      expect(refused!.status).toBe(503);
      expect(refused!.headers["retry-after"]).toBe("5");
      expect(JSON.parse(refused!.body).error.code).toBe("temporarily_unavailable");
      third.req.destroy();
      for (const h of held) h.req.end(REST_UPLOAD[1]);
      const answers = await Promise.all(held.map((h) => h.response));
      expect(answers.map((r) => [r.status, JSON.parse(r.body).error.message])).toEqual([
        [400, "The uploaded file was refused."],
        [400, "The uploaded file was refused."],
      ]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
