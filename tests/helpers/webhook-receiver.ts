import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A webhook receiver on loopback, as a customer would write one: it keeps every request (raw
// body and headers), answers what the test tells it to (status codes in order, then 204),
// and verifies signatures with the standardwebhooks library itself.

type Answer = number | [number, string] | "hang";
export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; status: number };

export type Receiver = {
  url: string;
  received: Received[];
  /** The next answers on `path`, in order (e.g. 500, 500, 500); afterwards `always` or 204. A redirect: [302, "/elsewhere"]; "hang": never answer. */
  answer: (path: string, ...statuses: Answer[]) => void;
  /** What `path` answers once its queue is empty. */
  always: (path: string, status: number) => void;
  /** Requests received on `path`. */
  on: (path: string) => Received[];
  /** The parsed payload if `secret` verifies this request, else throws. */
  verify: (r: Received, secret: string) => { type: string; timestamp: string; data: Record<string, unknown> };
  /** Received requests that carry a 2xx answer, by type. */
  ok: (type?: string) => Received[];
  /** A slow receiver: requests on paths starting with `prefix` go unanswered until `release()`, or at most `maxMs`, then are answered as usual. */
  hold: (prefix: string, maxMs: number) => void;
  /** Answers every held request now, and holds no more. */
  release: () => void;
  /** Paths of the requests held (arrived, not answered yet). */
  held: () => string[];
  close: () => Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const queues = new Map<string, Answer[]>();
  const fallback = new Map<string, number>();
  const received: Received[] = [];
  let holding: { prefix: string; maxMs: number } | undefined;
  const waiting = new Map<string, () => void>(); // a held request's path by key, and how to answer it
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const respond = (path: string) => {
      const next = queues.get(path)?.shift() ?? fallback.get(path) ?? 204;
      if (next === "hang") {
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status: 0 });
        return;
      }
      const [status, location] = Array.isArray(next) ? next : [next, undefined];
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
      res.writeHead(status, location ? { location } : {}).end(status >= 400 ? "<script>alert(1)</script> nope" : "");
    };
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      if (!holding || !path.startsWith(holding.prefix)) return respond(path);
      const key = `${path} ${Math.random()}`;
      const go = () => {
        clearTimeout(timer);
        if (waiting.delete(key)) respond(path);
      };
      const timer = setTimeout(go, holding.maxMs);
      waiting.set(key, go);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const verify = (r: Received, secret: string) =>
    new Webhook(secret).verify(r.body, {
      "webhook-id": String(r.headers["webhook-id"]),
      "webhook-timestamp": String(r.headers["webhook-timestamp"]),
      "webhook-signature": String(r.headers["webhook-signature"]),
    }) as { type: string; timestamp: string; data: Record<string, unknown> };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (path, ...s) => queues.set(path, [...(queues.get(path) ?? []), ...s]),
    always: (path, status) => void fallback.set(path, status),
    on: (path) => received.filter((r) => r.path === path),
    verify,
    ok: (type) => received.filter((r) => r.status < 300 && (!type || JSON.parse(r.body).type === type)),
    hold: (prefix, maxMs) => void (holding = { prefix, maxMs }),
    release: () => {
      holding = undefined;
      for (const go of [...waiting.values()]) go();
    },
    held: () => [...waiting.keys()].map((k) => k.split(" ")[0]),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
