import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleMcp } from "@/lib/transports/mcp/handler";
import { makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { serve } from "../helpers/http-server";

// Clients nobody here wrote, run as their own processes through the npm `node@22` package
// (they need Node 22): the MCP Inspector CLI and the MCP conformance suite.
const run = promisify(execFile);
const NODE22 = ["-y", "-p", "node@22"];

withDatabase();

let user: TestUser;
let server: { url: string; close: () => Promise<void> };
let mcpUrl = "";

beforeAll(async () => {
  user = await makeUser();
  server = await serve(async (req) => {
    // The conformance suite sends no credentials: this loopback front adds the test user's token.
    const headers = new Headers(req.headers);
    if (!headers.has("authorization")) headers.set("authorization", `Bearer ${user.token}`);
    const body = req.method === "POST" ? await req.arrayBuffer() : undefined;
    return handleMcp(new Request(req.url, { method: req.method, headers, body, signal: req.signal }));
  });
  mcpUrl = `${server.url}/mcp`;
});
afterAll(() => server?.close());

const inspector = (...args: string[]) =>
  run(
    "npx",
    [
      ...NODE22,
      "-p",
      "@modelcontextprotocol/inspector@2.12.0",
      "mcp-inspector",
      "--cli",
      mcpUrl,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${user.token}`,
      ...args,
    ],
    {
      timeout: 240_000,
      maxBuffer: 10 * 1024 * 1024,
    },
  );

describe("MCP Inspector CLI", () => {
  it("lists the tools", async () => {
    const { stdout } = await inspector("--method", "tools/list");
    const names = JSON.parse(stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toContain("fetch_item");
    expect(names).toContain("create_draft");
  }, 300_000);

  it("calls a tool with a bearer token", async () => {
    const { stdout } = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "create_draft",
      "--tool-arg",
      "type=post",
      "--tool-arg",
      "body=From the Inspector",
    );
    const result = JSON.parse(stdout);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.type).toBe("post");
  }, 300_000);
});

describe("MCP conformance suite", () => {
  for (const scenario of ["server-initialize", "tools-list", "dns-rebinding-protection"]) {
    it(`passes ${scenario}`, async () => {
      const out = await run(
        "npx",
        [...NODE22, "-p", "@modelcontextprotocol/conformance@0.2.0-alpha.12", "conformance", "server", "--url", mcpUrl, "--scenario", scenario],
        {
          timeout: 240_000,
          maxBuffer: 10 * 1024 * 1024,
        },
      ).catch((e) => e);
      const text = `${out.stdout}\n${out.stderr}`;
      expect(out.code ?? 0, text).toBe(0);
      expect(text).not.toMatch(/\bFAIL(ED)?\b/);
    }, 300_000);
  }
});
