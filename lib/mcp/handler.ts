import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { config } from "@/lib/config";
import { authenticateRequest, resourceMetadataUrl, Unauthorized, wwwAuthenticate } from "@/lib/http/auth";
import { errorBody, statusOf, toAppError } from "@/lib/http/errors";
import { isResponseBatch, recordAnswers } from "./elicitation";
import { createMcpServer } from "./server";
import { createSessionId, readSessionId, type McpSession } from "./session";

const MAX_BODY = 256 * 1024;
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

type Message = { method?: string; params?: { capabilities?: { elicitation?: unknown } } };

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
    const init = messages.find((m) => m?.method === "initialize");
    let session: McpSession = { elicitation: false };
    let newSession: string | undefined;
    if (init) {
      session = { elicitation: Boolean(init.params?.capabilities?.elicitation) };
      newSession = createSessionId(caller, session);
    } else if (req.headers.get("mcp-session-id")) {
      const known = readSessionId(req.headers.get("mcp-session-id")!, caller);
      if (!known) return finish(rpcError(404, -32001, "Session not found: initialize again."), origin);
      session = known;
    }
    if (isResponseBatch(body)) {
      await recordAnswers(body, caller);
      return finish(new Response(null, { status: 202 }), origin);
    }
    // Server-sent events only where a tool call may need to ask the user mid-call.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !session.elicitation });
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
