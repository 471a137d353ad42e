import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { config } from "@/lib/config";
import { authenticateRequest, resourceMetadataUrl, Unauthorized, wwwAuthenticate } from "@/lib/http/auth";
import { errorBody, statusOf, toAppError } from "@/lib/http/errors";
import { createMcpServer } from "./server";

const CORS = {
  "Access-Control-Allow-Methods": "POST, GET, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
  "Access-Control-Expose-Headers": "WWW-Authenticate, Mcp-Session-Id, MCP-Protocol-Version, X-Request-Id",
  "Access-Control-Max-Age": "86400",
};

/** Browsers may call only from the service's own origin or one listed in MCP_ALLOWED_ORIGINS. */
function originAllowed(origin: string | null): boolean {
  if (!origin) return true; // not a browser: DNS rebinding needs one
  const c = config();
  return origin === new URL(c.origin).origin || c.MCP_ALLOWED_ORIGINS.includes(origin);
}

function withCors(res: Response, origin: string | null): Response {
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries(CORS)) headers.set(k, v);
  if (origin) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.append("Vary", "Origin");
  }
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

const jsonRpcError = (status: number, message: string, headers: Record<string, string> = {}) =>
  Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status, headers });

/**
 * `{mcp_url}`: Streamable HTTP, stateless (a fresh server and transport per request), so any
 * server process can answer any request and nothing per client is kept in memory.
 */
export async function handleMcp(req: Request): Promise<Response> {
  const origin = req.headers.get("origin");
  if (!originAllowed(origin)) return jsonRpcError(403, "Forbidden: this Origin may not call the MCP server.");
  if (req.method === "OPTIONS") return withCors(new Response(null, { status: 204 }), origin);
  if (req.method === "GET" || req.method === "DELETE") {
    return withCors(jsonRpcError(405, "Method not allowed: this server is stateless; send JSON-RPC messages with POST.", { Allow: "POST" }), origin);
  }
  const requestId = randomUUID();
  try {
    const caller = await authenticateRequest(req, config().mcpUrl);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: 256 * 1024 });
    const server = createMcpServer(caller, requestId);
    await server.connect(transport);
    const res = await transport.handleRequest(req);
    void server.close();
    return withCors(res, origin);
  } catch (e) {
    const err = toAppError(e, requestId);
    const headers: Record<string, string> = { "X-Request-Id": requestId };
    if (err instanceof Unauthorized) headers["WWW-Authenticate"] = wwwAuthenticate(err, resourceMetadataUrl("/mcp"));
    return withCors(Response.json(errorBody(err), { status: statusOf(err), headers }), origin);
  }
}
