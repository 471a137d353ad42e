import net from "node:net";

// A client that sends a body far larger than any route takes, as an attacker would: over a
// raw connection, one chunk at a time as the connection takes it (never more held), declared
// in Content-Length or chunked without one, and still sending after the answer, until the
// server closes the connection.

export type HugeAnswer = {
  /** 0: no answer arrived. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of body handed to the connection. */
  sent: number;
  /** Whether the server closed the connection (false: the client gave up first). */
  closed: boolean;
};

const CHUNK = Buffer.alloc(64 * 1024, "a");
const CRLF = Buffer.from("\r\n");

function parse(raw: Buffer): Pick<HugeAnswer, "status" | "headers" | "body"> {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return { status: 0, headers: {}, body: "" };
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine.split(" ")[1]), headers, body: raw.subarray(end + 4).toString("utf8") };
}

export type HugeOptions = {
  method?: string;
  headers?: Record<string, string>;
  /** No Content-Length: Transfer-Encoding: chunked. */
  chunked?: boolean;
  size?: number;
  /** The client stops once this much went out without the server closing the connection, or after `giveUpMs`. */
  giveUpAfter?: number;
  giveUpMs?: number;
};

export function sendHuge(port: number, path: string, opts: HugeOptions = {}): Promise<HugeAnswer> {
  const { method = "POST", headers = {}, chunked = false, size = 500 * 1024 * 1024, giveUpAfter = 64 * 1024 * 1024, giveUpMs = 20_000 } = opts;
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let raw = Buffer.alloc(0);
    let sent = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(raw), sent, closed });
    };
    const timer = setTimeout(() => finish(false), giveUpMs);
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.on("data", (d: Buffer) => (raw = Buffer.concat([raw, d])));
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    socket.once("connect", async () => {
      const head = [`${method} ${path} HTTP/1.1`, `Host: localhost:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      head.push(chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${size}`);
      socket.write(`${head.join("\r\n")}\r\n\r\n`);
      while (!done && sent < size) {
        if (sent >= giveUpAfter) return finish(false);
        const piece = chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, CRLF]) : CHUNK;
        sent += CHUNK.length;
        if (!socket.write(piece)) await Promise.race([new Promise((r) => socket.once("drain", r)), closed]);
      }
    });
  });
}
