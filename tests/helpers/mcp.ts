import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { config } from "@/lib/core/config";
import { handleMcp } from "@/lib/transports/mcp/handler";

/** fetch that reaches the MCP route handler in process, exactly as an HTTP request would. */
export const inProcessFetch = (async (input: string | URL | Request, init?: RequestInit) => handleMcp(new Request(input, init))) as typeof fetch;

export type Rpc = { result?: Record<string, any>; error?: { code: number; message: string } };

/**
 * One raw 2026-07-28 request, as a client without the SDK sends it: the protocol's headers
 * (Mcp-Method, Mcp-Name) and the per-request _meta envelope declaring `capabilities`. In
 * process unless `url` and `fetcher` name a running server.
 */
export async function rpc2026(req: {
  token: string;
  method: string;
  name: string;
  params: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  url?: string;
  fetcher?: typeof fetch;
}): Promise<Rpc> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": req.capabilities,
  };
  const res = await (req.fetcher ?? inProcessFetch)(req.url ?? "http://localhost:3000/mcp", {
    method: "POST",
    headers: {
      authorization: `Bearer ${req.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": req.method,
      "mcp-name": req.name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: req.method, params: { ...req.params, _meta } }),
  });
  return res.json();
}

/** A raw POST to /mcp as a 2025-era client sends it (in a session when given), with any body. */
export const postLegacy = (token: string, body: BodyInit, opts: { version?: string; signal?: AbortSignal; session?: string } = {}) =>
  inProcessFetch("http://localhost:3000/mcp", {
    method: "POST",
    signal: opts.signal,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": opts.version ?? "2025-06-18",
      ...(opts.session && { "mcp-session-id": opts.session }),
    },
    body,
  });

/** The MCP SDK's own client, connected over Streamable HTTP with a bearer token. */
export async function mcpClient(token: string, opts: { capabilities?: Record<string, unknown>; name?: string } = {}) {
  const client = new Client({ name: opts.name ?? "test-client", version: "1.0.0" }, { capabilities: opts.capabilities ?? {} });
  const transport = new StreamableHTTPClientTransport(new URL(config().mcpUrl), {
    fetch: inProcessFetch,
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/**
 * The v2 SDK's client pinned to protocol 2026-07-28 (no initialize; the `_meta` envelope on
 * every request), connected in process like mcpClient.
 */
export async function mcpClientV2(token: string, opts: { capabilities?: Record<string, unknown>; name?: string } = {}) {
  const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = await import("@modelcontextprotocol/client");
  const client = new ClientV2(
    { name: opts.name ?? "test-client-v2", version: "2.0.0" },
    { capabilities: opts.capabilities ?? {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const transport = new TransportV2(new URL(config().mcpUrl), {
    fetch: inProcessFetch,
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}
