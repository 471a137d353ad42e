import http from "node:http";
import https from "node:https";

// The platforms' HTTP client: node:http(s) rather than fetch. A scheduler pass makes thousands
// of calls at once, and fetch (its WHATWG streams, a cloned request, a transferable abort
// signal) cost 0.58 ms of CPU per call against 0.23 ms here; it bounded how fast a backlog
// drains. The answer is read whole into a small object with the part of Response adapters use
// (a Response builds a web stream per call). Redirects are not followed (a platform's API
// answers where it is asked); no accept-encoding is sent, so bodies arrive as they are.

// Idle sockets are closed a second before the server's Keep-Alive timeout (Node applies that
// hint only below the agent's own `timeout`), so a post is never written to a closing socket.
const options = { keepAlive: true, timeout: 60_000 };
const agents = { "http:": new http.Agent(options), "https:": new https.Agent(options) };

/** No platform answer needed here is near this; a larger one is refused, never held. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export type PlatformRequest = { method: string; headers: Record<string, string>; body?: string | Uint8Array | FormData };

/** What adapters read of a platform's answer; a standard Response has all of it. */
export type Answer = {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  text(): Promise<string>;
};

class Answered implements Answer {
  readonly ok: boolean;
  readonly headers: Answer["headers"];
  constructor(
    readonly status: number,
    raw: http.IncomingHttpHeaders,
    private readonly body: Buffer,
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

/**
 * A multipart form as bytes, with the content type that names its boundary. Text stays a
 * string: Node then sends the head and the body as one buffer (a Buffer body is a second one).
 */
async function encode(init: PlatformRequest, url: string): Promise<{ body?: string | Uint8Array; headers: Record<string, string> }> {
  if (!(init.body instanceof FormData)) return { body: init.body, headers: init.headers };
  const r = new Request(url, { method: init.method, body: init.body });
  return { body: new Uint8Array(await r.arrayBuffer()), headers: { ...init.headers, "content-type": r.headers.get("content-type")! } };
}

/** Sends one request and reads the whole answer within `ms`. */
export async function request(url: string, init: PlatformRequest, ms: number): Promise<Answer> {
  const u = new URL(url);
  const agent = agents[u.protocol as keyof typeof agents];
  if (!agent) throw new TypeError(`unsupported protocol ${u.protocol}`);
  const { body, headers } = await encode(init, url);
  return new Promise<Answer>((resolve, reject) => {
    const fail = (e: unknown) => {
      clearTimeout(timer);
      reject(e);
    };
    const req = (u.protocol === "https:" ? https : http).request(
      u,
      {
        method: init.method,
        agent,
        headers: {
          accept: "*/*",
          "user-agent": "contentio",
          ...headers,
          ...(body !== undefined && { "content-length": String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.byteLength;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on("error", fail);
        res.on("end", () => {
          clearTimeout(timer);
          resolve(new Answered(res.statusCode!, res.headers, Buffer.concat(chunks)));
        });
      },
    );
    // Covers connecting, sending and reading the whole body, as fetch's signal did.
    const timer = setTimeout(() => req.destroy(new RequestTimeout(`no complete answer within ${ms} ms`)), ms);
    req.on("error", fail);
    req.end(body);
  });
}
