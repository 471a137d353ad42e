// What the benches send: a realistic post, the MCP request headers, and a checked POST.

// A realistic post (~1,500 characters) so the answer has the size of a real one.
export const BODY = [
  "Three years ago our team shipped a feature nobody used. We had interviewed forty customers, built a clickable prototype, and run a two-week beta.",
  "Everyone said they loved it. Usage after launch: four percent.",
  "",
  "What went wrong? We asked people what they wanted instead of watching what they did. Stated preferences " +
    "are cheap; revealed preferences cost time, money or attention, and that is why they are honest.",
  "",
  "Here is what we changed:",
  "1. Every interview now ends with a concrete ask: a pre-order, an introduction to a " +
    "colleague, or thirty minutes to migrate real data. A yes to a cost beats ten compliments.",
  "2. We instrument the prototype before the beta, not after. If we cannot say which number will move, we are not ready to build.",
  "3. We kill features in public. A short note to the whole company about what we stopped and why has done more for focus than any roadmap review.",
  "4. We write the launch post first. If the announcement sounds dull to us, it will sound dull to customers.",
  "",
  "The result: fewer launches, but the last five all passed thirty percent weekly usage within a month.",
  "",
  "The hardest part was not the process. It was admitting that our favourite ideas were often the ones with the least evidence behind them.",
  "",
  "What is one signal you trust more than what customers tell you?",
].join("\n");

export async function jsonPost(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 500)}`);
  return text;
}

/** Headers of an MCP POST (stateless Streamable HTTP, JSON answers), beside authorization and content-type. */
export const MCP_HEADERS = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

/**
 * An MCP `tools/call` as a client sends it, without a session: on 2025-06-18 (MCP_HEADERS),
 * or on 2026-07-28 (its Mcp-Method and Mcp-Name headers and the per-request `_meta` envelope).
 */
export function mcpToolCall(name: string, args: unknown, version: "2025-06-18" | "2026-07-28" = "2025-06-18") {
  if (version === "2025-06-18") {
    return { headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }) };
  }
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return {
    headers: { ...MCP_HEADERS, "mcp-protocol-version": version, "mcp-method": "tools/call", "mcp-name": name },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta } }),
  };
}
