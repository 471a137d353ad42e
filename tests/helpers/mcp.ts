import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { config } from "@/lib/config";
import { handleMcp } from "@/lib/mcp/handler";

/** fetch that reaches the MCP route handler in process, exactly as an HTTP request would. */
export const inProcessFetch = (async (input: string | URL | Request, init?: RequestInit) => handleMcp(new Request(input, init))) as typeof fetch;

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
