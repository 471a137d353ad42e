import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { operations } from "@/lib/operations/registry";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { inProcessFetch, mcpClient } from "../helpers/mcp";

withDatabase();

const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const errorOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text).error;

describe("MCP server", () => {
  it("lists every operation of the registry as a tool with title, schemas and all four annotations", async () => {
    const u = await makeUser();
    const client = await mcpClient(u.token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(operations.map((o) => o.name));
    for (const op of operations) {
      const tool = tools.find((t) => t.name === op.name)!;
      expect(tool.title).toBe(op.title);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations).toEqual({
        title: op.title,
        readOnlyHint: op.hints.readOnly,
        destructiveHint: op.hints.destructive,
        idempotentHint: op.hints.idempotent,
        openWorldHint: op.hints.openWorld,
      });
    }
    expect(tools.find((t) => t.name === "delete_draft")!.annotations!.destructiveHint).toBe(true);
  });

  it("calls tools with structured results the SDK validates against the output schema", async () => {
    const u = await makeUser();
    const client = await mcpClient(u.token);
    const created = structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body: "From an assistant" } }));
    expect(created.type).toBe("post");
    const fetched = structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: created.id } }));
    expect(fetched.body).toBe("From an assistant");
    // What MCP created, REST sees: one account, one set of data.
    const rest = await call("fetch_item", { type: "post", id: created.id }, { token: u.token });
    expect(rest.body).toEqual(fetched);
  });

  it("returns refusals as isError tool results with the same code, message and hint as REST", async () => {
    const u = await makeUser();
    const client = await mcpClient(u.token);
    const args = { type: "post", id: "00000000-0000-4000-8000-000000000000" };
    const viaMcp = await client.callTool({ name: "fetch_item", arguments: args });
    expect(viaMcp.isError).toBe(true);
    const viaRest = await call("fetch_item", args, { token: u.token });
    expect(errorOf(viaMcp)).toEqual(viaRest.body.error);
    const bad = await client.callTool({ name: "create_draft", arguments: { type: "post", body: "", extra: 1 } });
    expect(bad.isError).toBe(true);
    expect(errorOf(bad).code).toBe("invalid_request");
    expect(
      errorOf(bad)
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(["body", "extra"]);
    const gated = await client.callTool({ name: "delete_draft", arguments: args });
    expect(errorOf(gated).code).toBe("publishing_not_allowed");
  });

  it("refuses plan-less and incomplete accounts with the REST codes", async () => {
    const noPlan = await makeUser({ plan: "none" });
    const r1 = await (await mcpClient(noPlan.token)).callTool({ name: "search_content", arguments: {} });
    expect(errorOf(r1).code).toBe("plan_required");
    const incomplete = await makeUser({ complete: false });
    const r2 = await (await mcpClient(incomplete.token)).callTool({ name: "search_content", arguments: {} });
    expect(errorOf(r2).code).toBe("account_incomplete");
  });

  it("answers 401 with resource_metadata, and invalid_token for a bad token", async () => {
    const init = { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" };
    const none = await inProcessFetch(config().mcpUrl, init);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${config().origin}/.well-known/oauth-protected-resource/mcp"`);
    expect(none.headers.get("access-control-expose-headers")).toMatch(/WWW-Authenticate/);
    const bad = await inProcessFetch(config().mcpUrl, { ...init, headers: { ...init.headers, authorization: "Bearer nope" } });
    expect(bad.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  it("is stateless: GET and DELETE answer 405; a foreign Origin answers 403; an unknown protocol version 400", async () => {
    const u = await makeUser();
    const auth = { authorization: `Bearer ${u.token}` };
    expect((await inProcessFetch(config().mcpUrl, { method: "GET", headers: auth })).status).toBe(405);
    expect((await inProcessFetch(config().mcpUrl, { method: "DELETE", headers: auth })).status).toBe(405);
    const evil = await inProcessFetch(config().mcpUrl, { method: "POST", headers: { ...auth, origin: "https://evil.example" }, body: "{}" });
    expect(evil.status).toBe(403);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const old = await inProcessFetch(config().mcpUrl, { method: "POST", headers: { ...headers, "mcp-protocol-version": "1999-01-01" }, body });
    expect(old.status).toBe(400);
    for (const v of ["2025-03-26", "2025-06-18", "2025-11-25"]) {
      const ok = await inProcessFetch(config().mcpUrl, { method: "POST", headers: { ...headers, "mcp-protocol-version": v }, body });
      expect(ok.status, v).toBe(200);
    }
  });
});
