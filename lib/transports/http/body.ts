import { AppError, invalid } from "@/lib/core/errors";
import type { ApiRequest, BodyGate } from "./request";

export type { BodyGate };

export const MAX_BODY_BYTES = 256 * 1024;
/** Decodes UTF-8 and throws on bytes that are not (a plain TextDecoder would make them U+FFFD). */
export const UTF8 = new TextDecoder("utf-8", { fatal: true });

const tooLarge = (max: number) =>
  invalid([{ path: "(body)", message: `The body is larger than ${Math.floor(max / 1024)} KiB` }], "The request body is too large.");

/**
 * The connection failed while its body was being read (the client hung up, most often): an
 * error of the request, not of the service, and never logged as the database being down
 * (a socket's ECONNRESET looks like one).
 */
export const bodyNotReceived = () =>
  new AppError("invalid_request", "The request body did not arrive whole: the connection failed while it was being read.", "Send the request again.");

/**
 * Reads a JSON request body: the content type, the cap (256 KiB unless the operation allows
 * more; streamed, never buffered past it), the syntax.
 */
export async function readJsonBody(req: ApiRequest, maxBytes = MAX_BODY_BYTES, gate?: BodyGate): Promise<unknown> {
  const [type, ...params] = (req.header("content-type") ?? "").split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") {
    throw invalid(
      [{ path: "Content-Type", message: `Must be application/json${type ? `, not ${type}` : ""}` }],
      "The request must be a JSON body with Content-Type: application/json.",
    );
  }
  // JSON is UTF-8 (RFC 8259): a body in another encoding would be saved with its accented
  // letters turned into U+FFFD, so it is refused, as are bytes that are not UTF-8.
  const charset = params
    .find((p) => p.startsWith("charset="))
    ?.slice("charset=".length)
    .replace(/"/g, "");
  // ASCII is UTF-8's first half: a body that says us-ascii and is ASCII reads the same.
  if (charset && !["utf-8", "utf8", "us-ascii"].includes(charset)) {
    throw invalid([{ path: "Content-Type", message: `The charset must be utf-8, not ${charset}` }], "JSON bodies are UTF-8.");
  }
  const bytes = await req.body(maxBytes, gate);
  if (!bytes) throw tooLarge(maxBytes);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new AppError("invalid_json", "The request body is not UTF-8.", "Send the JSON encoded as UTF-8.");
  }
  if (text.trim() === "") {
    throw new AppError("invalid_json", "The request body is empty.", "Send a JSON object; {} when the operation needs no fields.");
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError(
      "invalid_json",
      `The request body is not valid JSON${e instanceof SyntaxError ? `: ${e.message}` : ""}.`,
      "Send a JSON object; {} when the operation needs no fields.",
    );
  }
}

/**
 * A request body as the one reader below takes it, whatever carries it: a web Request's
 * stream (the route files, `next dev`, the tests: `webBody`) or Node's own request
 * (`npm start`: `nodeBody` in node.ts). Only how chunks arrive and how reading stops differ;
 * the cap, the large-body gate and the failures are the reader's, written once.
 */
export type BodySource = {
  /** Content-Length as sent (0 without one). */
  declared: number;
  /** Hands each chunk to `chunk` as it arrives until it returns false, then calls `end`, or `error` when the connection fails. */
  feed(on: { chunk(bytes: Uint8Array): boolean; end(): void; error(): void }): void;
  /** Reads no further and drops the rest; settled once it is dropped. */
  stop(): Promise<unknown> | void;
};

/**
 * The one reader of a request body: its bytes, or null when it is larger than `maxBytes`. A
 * declared length over the cap is refused unread, and otherwise reading stops at the first
 * chunk past it, so a client can never make the server hold more than the cap (plus one
 * chunk) in memory. With a `gate`, reading goes past its size only if `admit()` lets it; what
 * `admit()` throws is thrown, and the rest is not read. A connection that fails before the
 * body is whole throws `bodyNotReceived()`.
 */
export function readCappedBody(body: BodySource, maxBytes: number, gate?: BodyGate): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    // Settles only once the rest is dropped (a web stream's cancel is awaited).
    const stop = (settle: () => void) => void Promise.resolve(body.stop()).then(settle, settle);
    if (body.declared > maxBytes) return stop(() => resolve(null));
    let admitted = !gate;
    const admit = (): boolean => {
      try {
        gate!.admit();
      } catch (e) {
        stop(() => reject(e));
        return false;
      }
      return (admitted = true);
    };
    if (gate && body.declared > gate.at && !admit()) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    body.feed({
      chunk(bytes) {
        size += bytes.byteLength;
        if (size > maxBytes) {
          stop(() => resolve(null));
          return false;
        }
        if (!admitted && size > gate!.at && !admit()) return false;
        chunks.push(bytes);
        return true;
      },
      end: () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)),
      error: () => reject(bodyNotReceived()),
    });
  });
}

/** A web Request's body for the reader: its stream, read a chunk at a time and cancelled when reading stops. */
export function webBody(req: Request): BodySource {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    declared: Number(req.headers.get("content-length") ?? "0"),
    feed(on) {
      if (!req.body) return on.end();
      const r = (reader = req.body.getReader());
      const next = (): void =>
        void r.read().then(
          ({ done, value }) => (done ? on.end() : on.chunk(value) && next()),
          () => on.error(),
        );
      next();
    },
    stop: () => (reader ? reader.cancel() : req.body?.cancel()),
  };
}

/** A web Request's body through the one reader (readCappedBody). */
export const readCapped = (req: Request, maxBytes: number, gate?: BodyGate) => readCappedBody(webBody(req), maxBytes, gate);
