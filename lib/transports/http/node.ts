import type { IncomingMessage, ServerResponse } from "node:http";
import { config } from "@/lib/core/config";
import { readCappedBody, type BodySource } from "./body";
import type { ApiAnswer, ApiRequest } from "./exchange";

// `npm start` hands API and MCP calls to their handlers straight from Node's request
// (direct-routes.mjs). The API's operation handler is the one the route file wraps for a web
// Request, with none of the web objects in between; MCP's handler gets a web Request without
// a body (serveAsWeb). Either way the body is read from Node's request by the one reader.

/** Node's request as the handler reads it. Repeated headers read as they would from a web Request's Headers. */
export function fromNodeRequest(req: IncomingMessage): ApiRequest {
  return {
    method: req.method ?? "GET",
    header: (name) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    body: (maxBytes, gate) => readCappedBody(nodeBody(req), maxBytes, gate),
  };
}

/**
 * Node's request body for the one reader (body.ts). When reading stops, what is left is read
 * and dropped, so the answer still arrives on an open connection, and the answer closes the
 * connection: reusing it would mean reading the whole rest first. The front server closes it
 * in stages, reading at most a bounded rest (server/lingering-close.mjs).
 */
export function nodeBody(req: IncomingMessage): BodySource {
  let unlisten = () => {};
  return {
    declared: Number(req.headers["content-length"] ?? "0"),
    feed(on) {
      const onData = (chunk: Buffer) => void on.chunk(chunk);
      const onEnd = () => (unlisten(), on.end());
      // A client that hangs up before the end ('aborted', ECONNRESET), or a request timeout.
      const onError = () => (unlisten(), on.error());
      unlisten = () => void req.off("data", onData).off("end", onEnd).off("error", onError);
      req.on("data", onData).on("end", onEnd).on("error", onError);
    },
    stop() {
      unlisten();
      unfinished.add(req);
      req.resume();
    },
  };
}

/** Requests whose body was left unread: their answer closes the connection. */
const unfinished = new WeakSet<IncomingMessage>();
const closesIfUnfinished = (res: ServerResponse) => unfinished.has(res.req) && res.setHeader("Connection", "close");

/** Writes an answer on Node's response, with its length (not chunked: the answer is whole). */
export function sendAnswer(res: ServerResponse, answer: ApiAnswer) {
  const body = Buffer.from(answer.body);
  closesIfUnfinished(res);
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": body.byteLength }).end(body);
}

/**
 * A web Request whose `signal` is the connection's. Given to the constructor instead, a signal
 * is followed through a WeakRef and a FinalizationRegistry, which V8's young-generation
 * collector treats as strong: every request then carried garbage into the old generation,
 * and under load the server ran frequent full collections and longer scavenges
 * (docs/performance.md, "The request path").
 */
class DirectRequest extends Request {
  readonly #signal: AbortSignal;
  constructor(url: URL, init: RequestInit, signal: AbortSignal) {
    super(url, init);
    this.#signal = signal;
  }
  override get signal(): AbortSignal {
    return this.#signal;
  }
}

/**
 * Serves Node's request with a handler of web Requests (MCP: the SDK's transport reads one),
 * under `npm start`. The Request is on the configured origin (never one a client's Host
 * header picks) and carries the headers and the connection's signal, aborted when the client
 * hangs up, as under Next; it carries no body: the handler reads that from Node's request
 * through the one reader (`body`), as the API's operations do, rather than from a web stream
 * fed by the socket.
 */
export async function serveAsWeb(req: IncomingMessage, res: ServerResponse, handle: (request: Request, body: BodySource) => Promise<Response>) {
  const aborted = new AbortController();
  res.once("close", () => res.writableFinished || aborted.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const request = new DirectRequest(new URL(req.url ?? "/", config().origin), { method: req.method, headers }, aborted.signal);
  await sendResponse(await handle(request, nodeBody(req)), res);
}

/** Writes a web Response on Node's response: server-sent events as they come, anything else whole. */
async function sendResponse(response: Response, res: ServerResponse) {
  res.statusCode = response.status;
  closesIfUnfinished(res);
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body) return void res.end();
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    return void res.end(Buffer.from(await response.arrayBuffer()));
  }
  res.flushHeaders();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (res.destroyed) break;
    res.write(chunk);
  }
  res.end();
}
