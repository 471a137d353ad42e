import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { mcpClient } from "../helpers/mcp";

withDatabase();

const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const errorOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text).error;

/** A client that shows forms (elicitation) and answers each with `answer`. */
async function formClient(token: string, answer: (message: string) => { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }) {
  const asked: string[] = [];
  const client = await mcpClient(token, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    const params = req.params as { message: string; requestedSchema: { properties: Record<string, unknown> } };
    expect(Object.keys(params.requestedSchema.properties)).toEqual(["confirm"]);
    asked.push(params.message);
    return answer(params.message);
  });
  return { client, asked };
}

async function draft(client: Awaited<ReturnType<typeof mcpClient>>, body = "Delete me, please") {
  return structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body } }));
}

describe("confirmation of exact actions over MCP", () => {
  it("asks a client that declared elicitation, and an accepted form completes the action once", async () => {
    const u = await makeUser({ publishing: true });
    const { client, asked } = await formClient(u.token, () => ({ action: "accept", content: { confirm: true } }));
    const d = await draft(client, "Monday notes");
    const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
    expect(res.isError).toBeFalsy();
    expect(structured(res)).toEqual({ id: d.id, type: "post", deleted: true, cancelled_schedule: false });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('delete the post "Monday notes"');
    expect(asked[0]).toContain("cannot be undone");
    const gone = await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } });
    expect(errorOf(gone).code).toBe("action_failed");
  });

  it("does nothing when the user declines, or accepts without ticking the box", async () => {
    const u = await makeUser({ publishing: true });
    for (const answer of [{ action: "decline" as const }, { action: "accept" as const, content: { confirm: false } }, { action: "cancel" as const }]) {
      const { client } = await formClient(u.token, () => answer);
      const d = await draft(client);
      const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
      expect(res.isError).toBe(true);
      expect(errorOf(res).code).toBe("action_failed");
      expect(errorOf(res).message).toMatch(/did not approve/);
      const still = await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } });
      expect(structured(still).id).toBe(d.id);
    }
  });

  it("returns the approval link to a client without elicitation", async () => {
    const u = await makeUser({ publishing: true });
    const client = await mcpClient(u.token);
    const d = await draft(client);
    const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
    expect(res.isError).toBe(true);
    const err = errorOf(res);
    expect(err.code).toBe("confirmation_required");
    expect(err.confirmation.url).toBe(`http://localhost:3000/confirm/${err.confirmation.id}`);
    expect(err.confirmation.action).toMatchObject({ operation: "delete_draft", type: "post", id: d.id });
  });

  it("refuses a session id that was forged or belongs to another app", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const clientA = await mcpClient(a.token);
    const sessionA = (clientA.transport as unknown as { sessionId?: string }).sessionId!;
    expect(sessionA).toBeTruthy();
    const { inProcessFetch } = await import("../helpers/mcp");
    const headers = { authorization: `Bearer ${b.token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionA };
    const res = await inProcessFetch("http://localhost:3000/mcp", { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(res.status).toBe(404);
    const forged = await inProcessFetch("http://localhost:3000/mcp", { method: "POST", headers: { ...headers, authorization: `Bearer ${a.token}`, "mcp-session-id": sessionA.slice(0, -2) + "xx" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(forged.status).toBe(404);
  });
});
