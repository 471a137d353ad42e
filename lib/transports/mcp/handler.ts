import { randomUUID } from "node:crypto";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { isLoopbackHost, originIsLoopback } from "@/lib/core/address-policy.mjs";
import { config } from "@/lib/core/config";
import { authenticateBearer } from "@/lib/transports/http/auth";
import { presentError, type ErrorAnswer } from "@/lib/core/errors/present";
import { MAX_BODY_BYTES, readCappedBody, UTF8, webBody, type BodySource } from "@/lib/transports/http/body";
import { largeBodyGate, TooManyLargeBodies } from "@/lib/transports/http/large-bodies";
import type { RateDecision } from "@/lib/adapters/ratelimit";
import { charge, chargeMessages, prepaid } from "@/lib/operations/budget";
import { bodyLimitOf, MAX_MCP_BODY_BYTES } from "./body-limit";
import { serveLegacy } from "./protocol-versions/legacy";
import { serveModern } from "./protocol-versions/modern";

/** JSON-RPC messages in one POST (batches exist only in 2025-03-26). */
const MAX_BATCH = 16;
const CORS = {
  "Access-Control-Allow-Methods": "POST, GET, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID",
  "Access-Control-Expose-Headers": "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version, X-Request-Id",
  "Access-Control-Max-Age": "86400",
};

/** The host name of a Host header (`name[:port]`, `[v6][:port]`), lower-case; null for anything else. */
const hostOf = (header: string) => /^(\[[0-9a-f:.]+\]|[^:/@[\]]+)(?::\d+)?$/i.exec(header)?.[1].toLowerCase() ?? null;

/**
 * DNS-rebinding protection. Browsers may call only from the service's own origin, one listed
 * in MCP_ALLOWED_ORIGINS, or (for a service on loopback) another loopback origin; a service
 * on loopback also refuses any Host that is not loopback. Loopback is the address policy's
 * (lib/core/address-policy.mjs).
 */
function requestAllowed(req: Request): boolean {
  const c = config();
  const own = new URL(c.origin);
  const local = originIsLoopback(c.origin);
  const header = req.headers.get("host");
  if (local && header) {
    const host = hostOf(header);
    if (!host || !isLoopbackHost(host)) return false;
  }
  const origin = req.headers.get("origin");
  if (!origin) return true; // not a browser: DNS rebinding needs one
  if (origin === own.origin || c.MCP_ALLOWED_ORIGINS.includes(origin)) return true;
  try {
    return local && originIsLoopback(origin);
  } catch {
    return false;
  }
}

/** The answer with the CORS headers (set in place: every answer here is built by this code or the SDK, never immutable). */
function finish(res: Response, origin: string | null, extra: Record<string, string> = {}): Response {
  for (const [k, v] of Object.entries(CORS)) res.headers.set(k, v);
  for (const [k, v] of Object.entries(extra)) res.headers.set(k, v);
  if (origin) {
    res.headers.set("Access-Control-Allow-Origin", origin);
    res.headers.append("Vary", "Origin");
  }
  return res;
}

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}, id: unknown = null) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id }, { status, headers });

/** Too many large bodies are being read (large-bodies.ts), as a JSON-RPC error; nothing was read past the usual cap. */
const busy = (answer: ErrorAnswer) =>
  rpcError(
    answer.status,
    -32000,
    "Temporarily unavailable: too many large requests are being received; this one was not read. Retry in 5 seconds.",
    answer.headers,
  );

/** 429 with Retry-After, answering the request's id once its body was read. */
const tooMany = (rate: RateDecision, id: unknown = null) =>
  rpcError(429, -32000, `Too many requests: wait ${rate.retryAfter} seconds.`, { "Retry-After": String(rate.retryAfter) }, id);

/** The id an error answers: the request's, when the body held one request (else null, as JSON-RPC says). */
const requestIdOf = (body: unknown) =>
  body && typeof body === "object" && !Array.isArray(body) && "method" in body && "id" in body && ["string", "number"].includes(typeof body.id)
    ? body.id
    : null;

type Message = { method?: string; params?: { name?: unknown } };

/**
 * `{mcp_url}`: Streamable HTTP for every protocol version. The front (Origin, token, body,
 * rate limit) is the same for all; then a 2026-07-28 request (one carrying the `_meta`
 * envelope) goes to the SDK's per-request handler, any other to the 2025-era leg. Both build
 * the same server (server.ts), so tools, schemas, refusals and the budget are one. The body
 * is read from `source`: the Request's own, or Node's request under `npm start` (serveAsWeb).
 */
export async function handleMcp(req: Request, source: BodySource = webBody(req)): Promise<Response> {
  const origin = req.headers.get("origin");
  if (!requestAllowed(req)) return rpcError(403, -32000, "Forbidden: this Host or Origin may not call the MCP server.");
  if (req.method === "OPTIONS") return finish(new Response(null, { status: 204 }), origin);
  if (req.method !== "POST") {
    return finish(rpcError(405, -32000, "Method not allowed: send JSON-RPC messages with POST (no server-initiated stream).", { Allow: "POST" }), origin);
  }
  const requestId = randomUUID();
  let gate: ReturnType<typeof largeBodyGate> | undefined;
  try {
    const caller = await authenticateBearer(req.headers.get("authorization"), config().mcpUrl);
    // The request pays for its first message before its body is read (budget.ts says why).
    const rate = await charge(caller);
    const paid = prepaid(rate);
    // Read up to the largest cap of any tool (each message's own cap is checked once parsed);
    // a caller out of budget only up to the usual cap: a larger body is refused unread. Past the
    // usual cap a body takes one of the few places for large bodies until it is answered.
    if (rate.allowed) gate = largeBodyGate(caller.userId);
    const bytes = await readCappedBody(source, rate.allowed ? MAX_MCP_BODY_BYTES : MAX_BODY_BYTES, gate);
    if (!bytes) return finish(rate.allowed ? rpcError(413, -32600, "Request body too large.") : tooMany(rate), origin);
    let body: unknown;
    try {
      body = JSON.parse(UTF8.decode(bytes));
    } catch {
      return finish(rpcError(400, -32700, "Parse error: the body is not valid JSON in UTF-8."), origin);
    }
    const messages = (Array.isArray(body) ? body : [body]) as Message[];
    if (bytes.byteLength > bodyLimitOf(messages)) return finish(rpcError(413, -32600, "Request body too large."), origin);
    if (messages.length > MAX_BATCH) return finish(rpcError(400, -32600, `Too many messages in one request (at most ${MAX_BATCH}).`), origin);
    // The other messages' points; tool calls pay in their operation.
    const refused = await chargeMessages(caller, rate, messages);
    if (refused) return finish(tooMany(refused, requestIdOf(body)), origin);
    // The body was read here once: the SDK is handed it parsed (it then never reads the request's).
    if (!(await isLegacyRequest(req, body, { maxRequestBodySize: MAX_MCP_BODY_BYTES }))) {
      return finish(await serveModern(req, body, caller, requestId, paid), origin);
    }
    const legacy = await serveLegacy(req, body, caller, requestId, paid);
    if ("error" in legacy) return finish(rpcError(404, -32001, "Session not found: initialize again.", {}, requestIdOf(body)), origin);
    return finish(legacy.response, origin, legacy.sessionHeader ? { "Mcp-Session-Id": legacy.sessionHeader } : {});
  } catch (e) {
    const answer = presentError(e, requestId, "/mcp");
    if (e instanceof TooManyLargeBodies) return finish(busy(answer), origin);
    return finish(Response.json(answer.body, { status: answer.status, headers: { "X-Request-Id": requestId, ...answer.headers } }), origin);
  } finally {
    gate?.release();
  }
}
