import { randomUUID } from "node:crypto";
import { config } from "@/lib/core/config";
import { db, type Db } from "@/lib/adapters/db";
import { isDatabaseUnavailable, resourceMetadataUrl } from "@/lib/core/errors/present";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { authenticate } from "@/lib/domain/apps/tokens";
import { mediaInfo, mediaPart, safeFilename } from "@/lib/domain/media/media";
import { PDF_TYPE, type MediaType } from "@/lib/domain/media/files";
import type { Caller } from "@/lib/domain/context";
import { charge } from "@/lib/operations/budget";
import { bearerToken } from "./auth";
import { rateLimitHeaders } from "./rate-headers";

// `{origin}/media/{id}`: an uploaded file, to its owner only: the signed-in owner in the
// browser (session cookie) or a bearer token of the same user (either audience: the REST
// API's or the MCP server's). Another user's id and a missing one get the same 404.

type Answer = { status: number; body: string | ReadableStream<Uint8Array>; headers: Record<string, string> };

/**
 * A file goes out in parts of this size, each read when the client is ready for it: a 20 MB
 * PDF holds about two parts in memory at a time, not the whole file (twice, before).
 */
export const PART_BYTES = 1024 * 1024;

function fileStream(d: Db, userId: string, id: string, bytes: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      const part = await mediaPart(d, userId, id, offset, PART_BYTES);
      // Deleted while it was being sent: the client sees a body shorter than Content-Length.
      if (!part?.length) return out.error(new Error("the file was deleted while it was sent"));
      out.enqueue(new Uint8Array(part)); // a copy of its own: a Buffer may be a view of a shared pool
      offset += part.length;
      if (offset >= bytes) out.close();
    },
  });
}

// Served as inert data: the exact type, no sniffing, no script, styles or plugins even if a
// browser were talked into rendering it as a page, never framed elsewhere, and only for the
// owner's own browser cache.
const SAFE = {
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "same-origin",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  Vary: "Authorization, Cookie",
};

const plain = (status: number, text: string, extra: Record<string, string> = {}): Answer => ({
  status,
  body: text,
  headers: { ...SAFE, "Content-Type": "text/plain; charset=utf-8", "Content-Security-Policy": "default-src 'none'", "Cache-Control": "no-store", ...extra },
});

const NOT_FOUND = () => plain(404, "Not found.");

/** RFC 6266: an ASCII fallback name and the exact UTF-8 one. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The caller a bearer token stands for, for either of this service's audiences; null when invalid. */
async function bearerCaller(header: string): Promise<Caller | null> {
  const token = bearerToken(header);
  if (!token) return null;
  const d = await db();
  for (const audience of [config().baseUrl, config().mcpUrl]) {
    const r = await authenticate(d, token, audience);
    if (r.ok) return r.caller;
    if (r.reason !== "audience") return null;
  }
  return null;
}

export async function mediaAnswer(req: Request, id: string, sessionUser: () => Promise<string | null>): Promise<Answer> {
  const header = req.headers.get("authorization");
  const caller = header ? await bearerCaller(header) : null;
  const userId = header ? (caller?.userId ?? null) : await sessionUser();
  if (!userId) {
    return plain(401, "Sign in, or send a bearer token of the media's owner.", {
      "WWW-Authenticate": `Bearer resource_metadata="${resourceMetadataUrl("/api/v1")}"`,
    });
  }
  // An app pays for each file it fetches (up to 20 MB read and held a time) from the budget
  // its calls share; the owner's own browser, showing their pages, does not.
  if (caller) {
    const rate = await charge(caller);
    if (!rate.allowed) return plain(429, `Too many requests: wait ${rate.retryAfter} seconds.`, rateLimitHeaders(rate));
  }
  // HEAD is answered from the description alone: the bytes are read for GET only, as sent.
  const d = await db();
  const row = (await mediaInfo(d, userId, [id])).get(id.toLowerCase());
  if (!row) return NOT_FOUND();
  const type = row.contentType as MediaType;
  return {
    status: 200,
    body: req.method === "HEAD" ? "" : fileStream(d, userId, row.id, row.bytes),
    headers: {
      ...SAFE,
      "Content-Type": type,
      "Content-Length": String(row.bytes),
      // A PDF viewer runs scripts and forms of its own: sandboxed, with nothing to load.
      "Content-Security-Policy": type === PDF_TYPE ? "default-src 'none'; sandbox" : "default-src 'none'",
      "Content-Disposition": disposition(row.filename ?? safeFilename(null, type, row.id)),
      // The bytes under an id never change; only the owner's browser may keep them.
      "Cache-Control": "private, max-age=86400",
    },
  };
}

/** The route's Response (HEAD gets the headers only). Never throws: failures are a plain 500/503. */
export async function serveMedia(req: Request, id: string, sessionUser: () => Promise<string | null>): Promise<Response> {
  let a: Answer;
  try {
    a = await mediaAnswer(req, id, sessionUser);
  } catch (e) {
    const requestId = randomUUID();
    log("error", "media.serve_failed", { requestId, ...errorFacts(e) });
    a = isDatabaseUnavailable(e)
      ? plain(503, "Temporarily unavailable; try again shortly.", { "Retry-After": "5" })
      : plain(500, `Something went wrong (request ${requestId}).`);
  }
  return new Response(req.method === "HEAD" ? null : a.body, { status: a.status, headers: a.headers });
}
