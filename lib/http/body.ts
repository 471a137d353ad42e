import { AppError, invalid } from "@/lib/errors";
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
 * The body's bytes, or null when it is larger than `maxBytes`: a declared length over the
 * cap is refused unread, and otherwise reading stops at the first chunk past it, so a
 * client can never make the server hold more than the cap (plus one chunk) in memory.
 * With a `gate`, reading goes past its size only if `admit()` lets it; what `admit()` throws
 * is thrown, and the rest is not read.
 */
export async function readCapped(req: Request, maxBytes: number, gate?: BodyGate): Promise<Uint8Array | null> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await req.body?.cancel().catch(() => {});
    return null;
  }
  const admit = async (cancel: () => Promise<unknown> | undefined) => {
    try {
      gate!.admit();
    } catch (e) {
      await cancel()?.catch(() => {});
      throw e;
    }
  };
  let admitted = !gate;
  if (gate && declared > gate.at) {
    await admit(() => req.body?.cancel());
    admitted = true;
  }
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw bodyNotReceived();
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    if (!admitted && size > gate!.at) {
      await admit(() => reader.cancel());
      admitted = true;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
