import http from "node:http";
import { createMcpHandler, Server, WebStandardStreamableHTTPServerTransport, type CallToolResult } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";

// The MCP SDK's own floor (bench/mcp-floor.ts): the SDK's per-request serving exactly as
// lib/transports/mcp uses it (a low-level Server and a stateless web-standard transport answering JSON
// for 2025-era requests, createMcpHandler for 2026-07-28), behind node:http with the body
// handed over parsed, and a tool that answers a fixed result (the one the whole server gave
// for fetch_item): no token check, no rate limiter, no database, no operation.
const port = Number(process.env.FLOOR_PORT);
const result = JSON.parse(process.env.FLOOR_RESULT!) as CallToolResult;
const validator = new AjvJsonSchemaValidator();

function server() {
  const s = new Server({ name: "floor", version: "1.0.0" }, { capabilities: { tools: {} }, jsonSchemaValidator: validator });
  s.setRequestHandler("tools/call", async () => result);
  return s;
}

const modern = createMcpHandler(server, { legacy: "reject" });

async function legacy(req: Request, parsedBody: unknown) {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server().connect(transport);
  return transport.handleRequest(req, { parsedBody });
}

http
  .createServer((req, res) => {
    if (req.url === "/health") return void res.end("ok");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const request = new Request(`http://127.0.0.1:${port}${req.url}`, { method: "POST", headers });
      const response = req.headers["mcp-protocol-version"] === "2026-07-28" ? await modern.fetch(request, { parsedBody: body }) : await legacy(request, body);
      res.statusCode = response.status;
      for (const [k, v] of response.headers) res.setHeader(k, v);
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  })
  .listen(port, "127.0.0.1");

process.on("SIGTERM", () => process.exit(0));
