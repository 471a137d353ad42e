import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { call, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { rpc2026 } from "../helpers/mcp";

withDatabase();

// The 2026-07-28 confirmation's requestState comes back from the client: it must be refused
// when tampered with, replayed after it was spent, presented by another user or app, or used
// for another call.

const callTool = (token: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  rpc2026({ token, method: "tools/call", name, params: { name, arguments: args, ...extra }, capabilities: { elicitation: { url: {} } } });

async function pendingPublish(u: TestUser) {
  const d = await call("create_draft", { type: "post", body: `State test ${Math.random()}` }, { token: u.token });
  const args = { type: "post", id: d.body.id };
  const first = await callTool(u.token, "publish_now", args);
  expect(first.result?.resultType, JSON.stringify(first)).toBe("input_required");
  const request = first.result!.inputRequests.approval;
  expect(request).toMatchObject({ method: "elicitation/create", params: { mode: "url" } });
  return { args, state: first.result!.requestState as string, approvalId: (request.params.url as string).split("/").pop()!, draftId: d.body.id };
}

const accepted = { approval: { action: "accept" } };

describe("requestState of a confirmation on 2026-07-28", () => {
  it("completes once approved, and is refused when replayed", async () => {
    const u = await makeUser({ publishing: true });
    const p = await pendingPublish(u);
    await decideApproval(await db(), u.id, p.approvalId, "approved");
    const done = await callTool(u.token, "publish_now", p.args, { inputResponses: accepted, requestState: p.state });
    expect(done.result?.isError, JSON.stringify(done)).toBeFalsy();
    expect(done.result?.structuredContent.url).toMatch(/sandbox\/pronet\//);
    const replay = await callTool(u.token, "publish_now", p.args, { inputResponses: accepted, requestState: p.state });
    expect(replay.error?.code, JSON.stringify(replay)).toBe(-32602);
  });

  it("refuses a tampered state", async () => {
    const u = await makeUser({ publishing: true });
    const p = await pendingPublish(u);
    await decideApproval(await db(), u.id, p.approvalId, "approved");
    const [v, body, mac] = p.state.split(".");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    payload.p.ap = crypto.randomUUID();
    const forged = [v, Buffer.from(JSON.stringify(payload)).toString("base64url"), mac].join(".");
    for (const s of [forged, p.state.slice(0, -3) + "AAA", "v1.e30.AAAA", "garbage"]) {
      const r = await callTool(u.token, "publish_now", p.args, { inputResponses: accepted, requestState: s });
      expect(r.error?.code, s).toBe(-32602);
    }
    expect((await call("fetch_item", { type: "post", id: p.draftId }, { token: u.token })).body.status).toBe("draft");
  });

  it("refuses another user's or app's state, and a state for other arguments", async () => {
    const u = await makeUser({ publishing: true });
    const other = await makeUser({ publishing: true });
    const p = await pendingPublish(u);
    await decideApproval(await db(), u.id, p.approvalId, "approved");
    const foreign = await callTool(other.token, "publish_now", p.args, { inputResponses: accepted, requestState: p.state });
    expect(foreign.error?.code).toBe(-32602);
    const d2 = await call("create_draft", { type: "post", body: "Another draft" }, { token: u.token });
    const elsewhere = await callTool(u.token, "publish_now", { type: "post", id: d2.body.id }, { inputResponses: accepted, requestState: p.state });
    expect(elsewhere.error?.code).toBe(-32602);
    const otherTool = await callTool(u.token, "delete_draft", p.args, { inputResponses: accepted, requestState: p.state });
    expect(otherTool.error?.code).toBe(-32602);
    // Nothing went out; the owner's approval is still there for the real retry.
    expect((await call("fetch_item", { type: "post", id: p.draftId }, { token: u.token })).body.status).toBe("draft");
    const done = await callTool(u.token, "publish_now", p.args, { inputResponses: accepted, requestState: p.state });
    expect(done.result?.structuredContent.url).toMatch(/sandbox\/pronet\//);
  });

  it("asks again while the owner has not decided, with the same approval", async () => {
    const u = await makeUser({ publishing: true });
    const p = await pendingPublish(u);
    setTimeout(async () => void decideApproval(await db(), u.id, p.approvalId, "approved"), 500);
    const done = await callTool(u.token, "publish_now", p.args, { inputResponses: accepted, requestState: p.state });
    expect(done.result?.structuredContent.url, JSON.stringify(done)).toMatch(/sandbox\/pronet\//);
  });
});
