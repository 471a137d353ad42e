import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { config } from "@/lib/config";
import { authenticateRequest, resourceMetadataUrl, Unauthorized, wwwAuthenticate } from "@/lib/http/auth";
import { errorBody, statusOf, toAppError } from "@/lib/errors/present";
import { db } from "@/lib/db";
import { consumeRequest } from "@/lib/ratelimit";
import { isResponseBatch, recordAnswers, recordCancellations } from "./elicitation";
import { createMcpServer } from "./server";
import { createSession, declaredModes, NO_SESSION, readSessionId, type McpSession } from "./session";

const MAX_BODY = 256 * 1024;
/** JSON-RPC messages in one POST (batches exist only in 2025-03-26). */
const MAX_BATCH = 16;
const CORS = {
  "Access-Control-Allow-Methods": "POST, GET, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
  "Access-Control-Expose-Headers": "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version, X-Request-Id",
  "Access-Control-Max-Age": "86400",
};

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * DNS-rebinding protection. Browsers may call only from the service's own origin, one listed
 * in MCP_ALLOWED_ORIGINS, or (for a service on a loopback address) another loopback origin;
 * a service on a loopback address also refuses any Host that is not loopback.
 */
function requestAllowed(req: Request): boolean {
  const c = config();
  const own = new URL(c.origin);
  const local = LOOPBACK.test(own.host);
  const host = req.headers.get("host");
  if (local && host && !LOOPBACK.test(host)) return false;
  const origin = req.headers.get("origin");
  if (!origin) return true; // not a browser: DNS rebinding needs one
  if (origin === own.origin || c.MCP_ALLOWED_ORIGINS.includes(origin)) return true;
  try {
    return local && LOOPBACK.test(new URL(origin).host);
  } catch {
    return false;
  }
}

function finish(res: Response, origin: string | null, extra: Record<string, string> = {}): Response {
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries({ ...CORS, ...extra })) headers.set(k, v);
  if (origin) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.append("Vary", "Origin");
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });

type Message = { id?: unknown; method?: string; params?: { capabilities?: { elicitation?: unknown } } };

/**
 * `{mcp_url}`: Streamable HTTP. A fresh server and transport per request; what must outlive
 * a request (the client's elicitation capability) travels in a signed Mcp-Session-Id, so any
 * server process can answer any request and no memory grows per client.
 */
export async function handleMcp(req: Request): Promise<Response> {
  const origin = req.headers.get("origin");
  if (!requestAllowed(req)) return rpcError(403, -32000, "Forbidden: this Host or Origin may not call the MCP server.");
  if (req.method === "OPTIONS") return finish(new Response(null, { status: 204 }), origin);
  if (req.method !== "POST") {
    return finish(rpcError(405, -32000, "Method not allowed: send JSON-RPC messages with POST (no server-initiated stream).", { Allow: "POST" }), origin);
  }
  const requestId = randomUUID();
  try {
    const caller = await authenticateRequest(req, config().mcpUrl);
    if (Number(req.headers.get("content-length") ?? 0) > MAX_BODY) return finish(rpcError(413, -32600, "Request body too large."), origin);
    const text = await req.text();
    if (text.length > MAX_BODY) return finish(rpcError(413, -32600, "Request body too large."), origin);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return finish(rpcError(400, -32700, "Parse error: the body is not valid JSON."), origin);
    }
    const messages = (Array.isArray(body) ? body : [body]) as Message[];
    if (messages.length > MAX_BATCH) return finish(rpcError(400, -32600, `Too many messages in one request (at most ${MAX_BATCH}).`), origin);
    // Every message counts against the caller's budget (tool calls count in the operation,
    // with REST's), answers and notifications included: none of them is free to flood.
    const uncounted = messages.filter((m) => m?.method !== "tools/call").length;
    for (let i = 0; i < uncounted; i++) {
      const rate = await consumeRequest(caller.userId, caller.plan);
      if (!rate.allowed) {
        return finish(rpcError(429, -32000, `Too many requests: wait ${rate.retryAfter} seconds.`, { "Retry-After": String(rate.retryAfter) }), origin);
      }
    }
    const init = messages.find((m) => m?.method === "initialize");
    let session: McpSession = NO_SESSION;
    let newSession: string | undefined;
    if (init) {
      ({ header: newSession, session } = createSession(caller, declaredModes(init.params?.capabilities?.elicitation)));
    } else if (req.headers.get("mcp-session-id")) {
      const known = readSessionId(req.headers.get("mcp-session-id")!, caller);
      if (!known) return finish(rpcError(404, -32001, "Session not found: initialize again."), origin);
      session = known;
    }
    if (isResponseBatch(body)) {
      await recordAnswers(await db(), body, caller, session);
      return finish(new Response(null, { status: 202 }), origin);
    }
    await recordCancellations(await db(), body, caller, session);
    // Server-sent events only where a tool call may need to ask the user mid-call.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !session.form && !session.url });
    const server = createMcpServer({ caller, requestId, session, transport, signal: req.signal });
    await server.connect(transport);
    const res = await transport.handleRequest(req, { parsedBody: body });
    return finish(res, origin, newSession ? { "Mcp-Session-Id": newSession } : {});
  } catch (e) {
    const err = toAppError(e, requestId);
    const headers: Record<string, string> = { "X-Request-Id": requestId };
    if (err instanceof Unauthorized) headers["WWW-Authenticate"] = wwwAuthenticate(err, resourceMetadataUrl("/mcp"));
    return finish(Response.json(errorBody(err), { status: statusOf(err), headers }), origin);
  }
}
