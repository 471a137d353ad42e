import type { Dispatcher } from "undici";
import { guardedLookup } from "./guarded";

// The platforms' HTTP client: undici's dispatcher (the engine under Node's fetch) answered
// through a small handler, not fetch or node:http. A scheduler pass makes thousands of calls
// at once, and each call's CPU bounds how fast a backlog drains: fetch (its WHATWG streams, a
// cloned request, a transferable abort signal) cost the most, and node:http (its
// ClientRequest and IncomingMessage stream) clearly more than this when the answer has a body
// (an X post's; LinkedIn's has none, and there the two are equal). Measured in
// docs/performance.md, "Scheduler". The answer is read whole into a small object with the part of Response
// adapters use. Redirects are not followed (a platform's API answers where it is asked); no
// accept-encoding is sent, so bodies arrive as they are.

// undici's public Agent, loaded with the first platform call: a server that never publishes
// does not carry it. Idle connections are kept a minute, or until two seconds before the
// server's Keep-Alive hint runs out (undici's threshold), so a post is never written to a
// closing connection.
let agent: Promise<Dispatcher> | undefined;
const dispatcher = () => (agent ??= import("undici").then(({ Agent }) => new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 })));
// For servers an account's own records name (guarded.ts): every connection's addresses checked.
let guardedAgent: Promise<Dispatcher> | undefined;
const guardedDispatcher = () =>
  (guardedAgent ??= import("undici").then(
    ({ Agent }) => new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000, connect: { lookup: guardedLookup } }),
  ));

/** No platform answer needed here is near this; a larger one is refused, never held. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export type PlatformRequest = {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /** The server is named by the account's own records: only addresses a webhook could go to (guarded.ts). */
  guarded?: boolean;
};

/** What adapters read of a platform's answer; a standard Response has all of it. */
export type Answer = {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  text(): Promise<string>;
};

/** An answer read whole: its status, its headers as received and its body's bytes. */
export class Answered implements Answer {
  readonly ok: boolean;
  readonly headers: Answer["headers"];
  constructor(
    readonly status: number,
    readonly raw: Record<string, string | string[] | undefined>,
    readonly body: Buffer,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = {
      get: (name) => {
        const v = raw[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
      },
    };
  }
  async text() {
    return this.body.toString("utf8");
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.body.toString("utf8"));
  }
}

/** Thrown when `ms` passed before the whole answer arrived (like fetch's AbortSignal.timeout). */
export class RequestTimeout extends Error {
  override name = "TimeoutError";
}

export const NOT_STARTED = "NO_CONNECTION_BY_DEADLINE";

/**
 * Thrown when `ms` passed before a connection was ready (a platform that accepts connections
 * and then stalls its TLS handshake, say). undici writes a request only once it has started,
 * and this one is stopped as it starts: nothing was sent, so it is safe to try again.
 */
class NotStarted extends Error {
  override name = "NotStartedError";
  readonly code = NOT_STARTED;
}

/** A multipart form as bytes, with the content type that names its boundary. */
async function encode(init: PlatformRequest, url: string): Promise<{ body?: string | Uint8Array; headers: Record<string, string> }> {
  if (!(init.body instanceof FormData)) return { body: init.body, headers: init.headers };
  const r = new Request(url, { method: init.method, body: init.body });
  return { body: new Uint8Array(await r.arrayBuffer()), headers: { ...init.headers, "content-type": r.headers.get("content-type")! } };
}

/** Sends one request and reads the whole answer within `ms`. */
export async function request(url: string, init: PlatformRequest, ms: number): Promise<Answer> {
  const u = new URL(url);
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new TypeError(`unsupported protocol ${u.protocol}`);
  const { body, headers } = await encode(init, url);
  const agent = await (init.guarded ? guardedDispatcher() : dispatcher());
  return new Promise<Answer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let timedOut: RequestTimeout | undefined;
    let status = 0;
    let raw: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    // Covers connecting, sending and reading the whole body, as fetch's signal did. Before a
    // connection is ready there is nothing to abort yet: the request is stopped as it starts.
    const timer = setTimeout(() => {
      timedOut = new RequestTimeout(`no complete answer within ${ms} ms`);
      if (controller) controller.abort(timedOut);
      else reject(new NotStarted(`no connection ready within ${ms} ms; nothing was sent`));
    }, ms);
    agent.dispatch(
      // undici counts the body's bytes for content-length (a string's in UTF-8).
      {
        origin: u.origin,
        path: u.pathname + u.search,
        method: init.method as Dispatcher.HttpMethod,
        headers: { accept: "*/*", "user-agent": "contentio", ...headers },
        body,
      },
      {
        onRequestStart(c) {
          controller = c;
          if (timedOut) c.abort(timedOut);
        },
        onResponseStart(_c, statusCode, h) {
          status = statusCode;
          raw = h;
        },
        onResponseData(c, chunk) {
          size += chunk.byteLength;
          if (size > MAX_ANSWER_BYTES) c.abort(new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        },
        onResponseEnd() {
          clearTimeout(timer);
          resolve(new Answered(status, raw, Buffer.concat(chunks)));
        },
        onResponseError(_c, e) {
          clearTimeout(timer);
          reject(e);
        },
      },
    );
  });
}
