import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { setAppTrustsForms } from "@/lib/domain/accounts/connections";
import { call, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withRealLimits } from "../helpers/rate-limit";
import { mcpClient, mcpClientV2, postLegacy } from "../helpers/mcp";

withDatabase();

// One server for every protocol version: a v1 SDK client (2025-11-25, initialize) and a v2 SDK
// client pinned to 2026-07-28 (no initialize, the _meta envelope) see the same tools, results,
// refusals and budget, and both complete a confirmed publish_now after the owner's yes.

const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const errorOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text).error;
const approvalIdOf = (url: string) => url.split("/").pop()!;

type UrlParams = { mode?: string; url?: string; message: string };

/** Both clients, declaring URL-mode elicitation; `onUrl` plays the owner on the approval page. */
async function clients(u: TestUser, onUrl: (p: UrlParams) => Promise<{ action: "accept" | "decline" | "cancel" }>) {
  const asked: { v: string; p: UrlParams }[] = [];
  const v1 = await mcpClient(u.token, { capabilities: { elicitation: { url: {} } } });
  const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  v1.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push({ v: "v1", p: req.params as UrlParams });
    return (await onUrl(req.params as UrlParams)) as never;
  });
  const v2 = await mcpClientV2(u.token, { capabilities: { elicitation: { url: {} } } });
  v2.setRequestHandler("elicitation/create", async (req) => {
    asked.push({ v: "v2", p: req.params as UrlParams });
    return onUrl(req.params as UrlParams);
  });
  return { v1, v2, asked };
}

const ownerApproves = (u: TestUser) => async (p: UrlParams) => {
  await decideApproval(await db(), u.id, approvalIdOf(p.url!), "approved");
  return { action: "accept" as const };
};

describe("2025-era and 2026-07-28 clients on one server", () => {
  it("list the same tools, with titles, icons, annotations and schemas, on every version", async () => {
    const u = await makeUser();
    const { v1, v2 } = await clients(u, ownerApproves(u));
    expect(v2.getProtocolEra()).toBe("modern");
    const a = (await v1.listTools()).tools;
    const b = (await v2.listTools()).tools;
    expect(b).toEqual(a);
    for (const t of a) {
      expect(t.title).toBeTruthy();
      expect(t.icons?.[0]?.src).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(t.outputSchema?.type).toBe("object");
    }
    // 2025-03-26 and 2025-06-18 requests get the same list too.
    for (const version of ["2025-03-26", "2025-06-18"]) {
      const res = await postLegacy(u.token, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), { version });
      expect((await res.json()).result.tools, version).toEqual(JSON.parse(JSON.stringify(a)));
    }
  });

  it("call create_draft alike and are refused the same way as REST", async () => {
    const u = await makeUser();
    const { v1, v2 } = await clients(u, ownerApproves(u));
    const shapes = [];
    for (const c of [v1, v2]) {
      const created = structured(await c.callTool({ name: "create_draft", arguments: { type: "post", body: "Same on every version" } }));
      expect(created.type).toBe("post");
      shapes.push(Object.keys(created).sort());
    }
    expect(shapes[1]).toEqual(shapes[0]);
    const missing = { type: "post", id: "00000000-0000-4000-8000-000000000000" };
    const rest = (await call("fetch_item", missing, { token: u.token })).body.error;
    const r1 = await v1.callTool({ name: "fetch_item", arguments: missing });
    const r2 = await v2.callTool({ name: "fetch_item", arguments: missing });
    expect(r1.isError && r2.isError).toBe(true);
    expect(errorOf(r1)).toEqual(rest);
    expect(errorOf(r2)).toEqual(rest);
    const gated1 = await v1.callTool({ name: "delete_draft", arguments: missing });
    const gated2 = await v2.callTool({ name: "delete_draft", arguments: missing });
    expect(errorOf(gated1).code).toBe("publishing_not_allowed");
    expect(errorOf(gated2)).toEqual(errorOf(gated1));
    const bad = { type: "post", body: "", extra: 1 };
    expect(errorOf(await v2.callTool({ name: "create_draft", arguments: bad }))).toEqual(errorOf(await v1.callTool({ name: "create_draft", arguments: bad })));
  });

  it("complete publish_now after the owner approves on the page: URL elicitation for v1, input_required for v2", async () => {
    const u = await makeUser({ publishing: true });
    const { v1, v2, asked } = await clients(u, ownerApproves(u));
    for (const c of [v1, v2]) {
      const d = structured(await c.callTool({ name: "create_draft", arguments: { type: "post", body: `Approved on the page (${c === v1 ? "v1" : "v2"})` } }));
      const res = await c.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
      expect(res.isError, JSON.stringify(res)).toBeFalsy();
      expect(structured(res).url).toMatch(/\/sandbox\/pronet\//);
    }
    expect(asked.map((a) => [a.v, a.p.mode])).toEqual([
      ["v1", "url"],
      ["v2", "url"],
    ]);
    for (const a of asked) expect(a.p.url).toMatch(/^http:\/\/localhost:3000\/confirm\/[0-9a-f-]{36}$/);
  });

  it("v2: the owner's denial does nothing; a declined page leaves the link, as on 2025-11-25", async () => {
    const u = await makeUser({ publishing: true });
    let answer: "deny" | "decline" = "deny";
    const { v1, v2 } = await clients(u, async (p) => {
      if (answer === "deny") await decideApproval(await db(), u.id, approvalIdOf(p.url!), "denied");
      return { action: answer === "deny" ? "accept" : "decline" };
    });
    const denied = structured(await v2.callTool({ name: "create_draft", arguments: { type: "post", body: "Not this one" } }));
    expect(errorOf(await v2.callTool({ name: "publish_now", arguments: { type: "post", id: denied.id } })).message).toMatch(/did not approve/);
    answer = "decline";
    for (const c of [v1, v2]) {
      const d = structured(await c.callTool({ name: "create_draft", arguments: { type: "post", body: "Maybe later" } }));
      const e = errorOf(await c.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } }));
      expect(e.code).toBe("confirmation_required");
      expect(structured(await c.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).status).toBe("draft");
    }
  });

  it("v2: a form in the client's window approves only for an app the owner trusts", async () => {
    const u = await makeUser({ publishing: true });
    const asked: { mode?: string; message: string }[] = [];
    const v2 = await mcpClientV2(u.token, { capabilities: { elicitation: { form: {} } } });
    v2.setRequestHandler("elicitation/create", async (req) => {
      asked.push(req.params as { message: string });
      return { action: "accept", content: { confirm: true } };
    });
    const d = structured(await v2.callTool({ name: "create_draft", arguments: { type: "post", body: "Trusted form on 2026-07-28" } }));
    expect(errorOf(await v2.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } })).code).toBe("confirmation_required");
    expect(asked).toHaveLength(0);
    await setAppTrustsForms(await db(), u.id, u.appId, true);
    const res = await v2.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    expect(res.isError, JSON.stringify(res)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toContain("Trusted form on 2026-07-28");
  });

  it("v2 without URL elicitation gets the confirmation_required link, as v1 does", async () => {
    const u = await makeUser({ publishing: true });
    const v1 = await mcpClient(u.token);
    const v2 = await mcpClientV2(u.token);
    const d = structured(await v2.callTool({ name: "create_draft", arguments: { type: "post", body: "Link only" } }));
    const e2 = errorOf(await v2.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } }));
    const e1 = errorOf(await v1.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } }));
    expect(e2.code).toBe("confirmation_required");
    expect(e2).toEqual(e1); // the same open approval, reused
  });

  it("refuse a body that is not UTF-8 as a parse error, saving nothing", async () => {
    const u = await makeUser();
    const message = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_draft","arguments":{"type":"post","body":"caf';
    const res = await postLegacy(u.token, Buffer.concat([Buffer.from(message), Buffer.from([0xe9]), Buffer.from('"}}}')]));
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
    expect((await call("search_content", {}, { token: u.token })).body.results).toEqual([]);
  });

  describe("with the plans' real limits", () => {
    withRealLimits();

    it("draw on one budget per user", async () => {
      const u = await makeUser({ plan: "plus" }); // 30 a minute
      const { v1, v2 } = await clients(u, ownerApproves(u));
      let ok = 0;
      let refusedBy: string | undefined;
      for (let i = 0; i < 40 && !refusedBy; i++) {
        const c = i % 2 ? v2 : v1;
        const r = await c.callTool({ name: "search_content", arguments: {} }).catch((e) => e);
        if (r instanceof Error || r.isError) refusedBy = i % 2 ? "v2" : "v1";
        else ok++;
      }
      expect(refusedBy).toBeDefined();
      expect(ok).toBeLessThan(30); // the connections' own messages counted too
      // Both clients and REST are now refused.
      for (const c of [v1, v2]) {
        const r = await c.callTool({ name: "search_content", arguments: {} }).catch((e) => e);
        expect(r instanceof Error ? String(r) : errorOf(r).code).toMatch(/rate_limited|429|Too many/);
      }
      expect((await call("search_content", {}, { token: u.token })).status).toBe(429);
    });
  });
});
