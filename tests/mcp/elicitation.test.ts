import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { setAppTrustsForms } from "@/lib/domain/accounts/connections";
import { MAX_WAITING_PER_USER } from "@/lib/domain/approvals/elicitations";
import { operations } from "@/lib/operations/registry";
import { approvals, elicitations } from "@/drizzle/schema";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withRealLimits } from "../helpers/rate-limit";
import { inProcessFetch, mcpClient } from "../helpers/mcp";

withDatabase();

type Params = { mode?: string; message: string; url?: string; elicitationId?: string; requestedSchema?: { properties: Record<string, unknown> } };
type Answer = { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };
type McpClient = Awaited<ReturnType<typeof mcpClient>>;

const structured = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;
const errorOf = (r: unknown) => JSON.parse((r as { content: { text: string }[] }).content[0].text).error;
const sessionOf = (c: McpClient) => (c.transport as unknown as { sessionId?: string }).sessionId!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client that declares `elicitation` and answers every request with `answer`. */
async function elicitingClient(token: string, elicitation: Record<string, unknown>, answer: (p: Params, id: string | number) => Answer | Promise<Answer>) {
  const asked: Params[] = [];
  const client = await mcpClient(token, { capabilities: { elicitation } });
  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    asked.push(req.params as Params);
    return (await answer(req.params as Params, extra.requestId)) as never;
  });
  return { client, asked };
}

async function draft(client: McpClient, body = "Delete me, please") {
  return structured(await client.callTool({ name: "create_draft", arguments: { type: "post", body } }));
}

async function approvalStatus(id: string) {
  const [row] = await (await db()).select({ status: approvals.status }).from(approvals).where(eq(approvals.id, id));
  return row?.status;
}

/** A raw JSON-RPC POST to /mcp with the app's token (and a session when given). */
const headers = (token: string, session?: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  ...(session && { "mcp-session-id": session }),
});

function post(token: string, body: unknown, session?: string) {
  return inProcessFetch("http://localhost:3000/mcp", { method: "POST", headers: headers(token, session), body: JSON.stringify(body) });
}

const selfApproval = (id: string) => ({ jsonrpc: "2.0", id, result: { action: "accept", content: { confirm: true } } });

describe("answers the server never asked for approve nothing", () => {
  it("a forged elicitation answer without a session (attack 1) leaves the approval pending and publishes nothing", async () => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "Self-approved?" }, { token: u.token });
    const first = await call("publish_now", { type: "post", id: d.body.id }, { token: u.token });
    expectError(first, 403, "confirmation_required");
    const a = first.body.error.confirmation.id;
    for (const id of [`confirm:${a}:x`, `confirm:${a}`, `confirm:${a}:${"A".repeat(32)}`]) {
      const res = await post(u.token, selfApproval(id));
      expect(res.status).toBe(202);
    }
    // The same forgery inside a real session, naming the approval or guessing a row.
    const client = await mcpClient(u.token, { capabilities: { elicitation: { form: {}, url: {} } } });
    await post(u.token, [selfApproval(`confirm:${a}:x`), selfApproval(`confirm:${crypto.randomUUID()}:x`)], sessionOf(client));
    expect(await approvalStatus(a)).toBe("pending");
    expectError(await call("publish_now", { type: "post", id: d.body.id }, { token: u.token }), 403, "confirmation_required");
    expect((await call("fetch_item", { type: "post", id: d.body.id }, { token: u.token })).body.status).toBe("draft");
  });

  it("a client answering its own forms (attack 2) is sent no form and publishes nothing unless the owner trusts it", async () => {
    const u = await makeUser({ publishing: true });
    const { client, asked } = await elicitingClient(u.token, {}, () => ({ action: "accept", content: { confirm: true } }));
    const d = await draft(client, "Only with a person's yes");
    const res = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    expect(res.isError).toBe(true);
    expect(errorOf(res).code).toBe("confirmation_required");
    expect(asked).toHaveLength(0);
    expect(await approvalStatus(errorOf(res).confirmation.id)).toBe("pending");
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).status).toBe("draft");
  });

  it("an answer from another session of the same app does not count, even with the right id and secret", async () => {
    const u = await makeUser({ publishing: true });
    await setAppTrustsForms(await db(), u.id, u.appId, true);
    const other = await mcpClient(u.token);
    let replayed: Response | undefined;
    const { client } = await elicitingClient(u.token, { form: {} }, async (_p, elicitationId) => {
      // The form's id carries the secret; another session replays it first.
      replayed = await post(u.token, selfApproval(String(elicitationId)), sessionOf(other));
      return { action: "decline" };
    });
    const d = await draft(client);
    const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
    expect(replayed?.status).toBe(202);
    expect(errorOf(res).message).toMatch(/did not approve/);
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).id).toBe(d.id);
  });
});

describe("a form in the client's window, for an app the owner trusts", () => {
  async function trusted(u: TestUser, answer: (p: Params) => Answer) {
    await setAppTrustsForms(await db(), u.id, u.appId, true);
    return elicitingClient(u.token, { form: {} }, answer);
  }

  it("shows the full text, platform, account and time, and an accepted form completes the action once", async () => {
    const u = await makeUser({ publishing: true });
    const { client, asked } = await trusted(u, () => ({ action: "accept", content: { confirm: true } }));
    const d = await draft(client, "Monday notes\n\nSecond paragraph with the details.");
    const at = new Date(Date.now() + 3 * 3600_000);
    at.setUTCSeconds(0, 0);
    const res = await client.callTool({ name: "schedule_content", arguments: { type: "post", id: d.id, scheduled_for: at.toISOString() } });
    expect(res.isError).toBeFalsy();
    expect(structured(res)).toMatchObject({ id: d.id, status: "scheduled" });
    expect(asked).toHaveLength(1);
    expect(asked[0].mode ?? "form").toBe("form");
    expect(Object.keys(asked[0].requestedSchema!.properties)).toEqual(["confirm"]);
    expect(asked[0].message).toContain("Second paragraph with the details.");
    // No LinkedIn app is set up here: the post goes to the sandbox, and the form says so.
    expect(asked[0].message).toContain("Account: the sandbox (LinkedIn is not set up: posts stay in this service)");
    expect(asked[0].message).toContain("This acts on the sandbox, not a real account.");
    expect(asked[0].message).toContain(at.getUTCFullYear().toString());
    expect(asked[0].message).toMatch(/UTC/);
    // Used up: the same call needs a new approval.
    const again = await client.callTool({ name: "schedule_content", arguments: { type: "post", id: d.id, scheduled_for: at.toISOString() } });
    expect(asked).toHaveLength(2);
    expect(again.isError).toBeFalsy();
  });

  it("does nothing when the user declines, or accepts without ticking the box", async () => {
    const u = await makeUser({ publishing: true });
    for (const answer of [{ action: "decline" as const }, { action: "accept" as const, content: { confirm: false } }, { action: "cancel" as const }]) {
      const { client } = await trusted(u, () => answer);
      const d = await draft(client);
      const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
      expect(res.isError).toBe(true);
      expect(errorOf(res).code).toBe("action_failed");
      expect(errorOf(res).message).toMatch(/did not approve/);
      expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).id).toBe(d.id);
    }
  });

  it("a yes given after the owner withdrew the trust is taken as a no", async () => {
    const u = await makeUser({ publishing: true });
    const { client } = await trusted(u, () => ({ action: "accept", content: { confirm: true } }));
    client.setRequestHandler(ElicitRequestSchema, async () => {
      await setAppTrustsForms(await db(), u.id, u.appId, false);
      return { action: "accept", content: { confirm: true } };
    });
    const d = await draft(client);
    const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
    expect(errorOf(res).message).toMatch(/did not approve/);
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).id).toBe(d.id);
  });

  it("trust is the owner's own: another user's app id changes nothing", async () => {
    const a = await makeUser();
    const b = await makeUser();
    expect(await setAppTrustsForms(await db(), a.id, b.appId, true)).toBe(false);
    expect(await setAppTrustsForms(await db(), a.id, "not-a-uuid", true)).toBe(false);
  });
});

// What the owner is asked comes from each operation's definition (`approval` in
// lib/operations/define.ts), not from its name: the words of every operation that needs an
// approval, and which of them say the action cannot be undone.
describe("the words of each approval", () => {
  const declineAllBut =
    (verb: string) =>
    (p: Params): Answer =>
      p.message.includes(`wants to ${verb} this`) ? { action: "accept", content: { confirm: true } } : { action: "decline" };
  const firstLine = (p: Params) => p.message.split("\n")[0].replace(/^.* wants to /, "wants to ");
  const lastLine = (p: Params) => p.message.split("\n").at(-1);

  it("are given by every operation that may need an approval, and only by those", () => {
    for (const op of operations) expect(Boolean(op.approval), op.name).toBe(op.confirmation || Boolean(op.confirmationWhen));
  });

  it("in the form, from each operation's definition", async () => {
    const u = await makeUser({ publishing: true });
    await setAppTrustsForms(await db(), u.id, u.appId, true);
    const { client, asked } = await elicitingClient(u.token, { form: {} }, declineAllBut("schedule"));
    const d = await draft(client, "Words of the approval");
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect(structured(await client.callTool({ name: "schedule_content", arguments: { type: "post", id: d.id, scheduled_for: at } })).status).toBe("scheduled");
    for (const [name, args] of [
      ["update_draft", { type: "post", id: d.id, body: "Changed words" }],
      ["publish_now", { type: "post", id: d.id }],
      ["delete_draft", { type: "post", id: d.id }],
    ] as const) {
      expect((await client.callTool({ name, arguments: args })).isError, name).toBe(true);
    }
    expect(asked.map(firstLine)).toEqual([
      "wants to schedule this post.",
      "wants to change the content of the scheduled this post.",
      "wants to publish now this post.",
      "wants to delete this post.",
    ]);
    expect(asked.map(lastLine)).toEqual([
      "This acts on the sandbox, not a real account. Approve this exact action?",
      "This acts on the sandbox, not a real account. Approve this exact action?",
      "This acts on the sandbox, not a real account and cannot be undone. Approve this exact action?",
      "This acts on the sandbox, not a real account and cannot be undone. Approve this exact action?",
    ]);
    expect(asked.map((p) => (p.requestedSchema!.properties.confirm as { title: string }).title)).toEqual([
      "Yes, schedule it",
      "Yes, change the content of the scheduled it",
      "Yes, publish now it",
      "Yes, delete it",
    ]);
  });

  it("in the message that sends the approval page", async () => {
    const u = await makeUser({ publishing: true });
    const { client, asked } = await elicitingClient(u.token, { url: {} }, () => ({ action: "decline" }));
    const d = await draft(client, "Words of the link");
    await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
    expect(asked.map((p) => p.message.replace(/^.* asks to /, "asks to ").split(". ")[0])).toEqual([
      'asks to publish now the post "Words of the link"',
      'asks to delete the post "Words of the link"',
    ]);
  });
});

describe("the approval page, opened by URL-mode elicitation", () => {
  it("sends the page's URL and completes the call once the owner approves there", async () => {
    const u = await makeUser({ publishing: true });
    // A client that can show forms too: without the owner's trust, the page is used. The
    // person opens the page and approves there a moment after the client shows the link.
    const { client, asked } = await elicitingClient(u.token, { form: {}, url: {} }, async (p) => {
      const d = await db();
      setTimeout(() => void decideApproval(d, u.id, p.url!.split("/").pop()!, "approved"), 400);
      return { action: "accept" };
    });
    const d = await draft(client, "Published after the owner's yes");
    const res = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    expect(res.isError, JSON.stringify(res)).toBeFalsy();
    expect(structured(res).url).toMatch(/\/sandbox\/pronet\//);
    expect(asked).toHaveLength(1);
    expect(asked[0].mode).toBe("url");
    expect(asked[0].url).toMatch(/^http:\/\/localhost:3000\/confirm\/[0-9a-f-]{36}$/);
    expect(asked[0].elicitationId).toBeTruthy();
  });

  it("an edit of a scheduled draft's text waits for the owner too, and keeps the schedule", async () => {
    const u = await makeUser({ publishing: true });
    const { client, asked } = await elicitingClient(u.token, { url: {} }, async (p) => {
      const d = await db();
      setTimeout(() => void decideApproval(d, u.id, p.url!.split("/").pop()!, "approved"), 200);
      return { action: "accept" };
    });
    const d = await draft(client, "Hello");
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect(structured(await client.callTool({ name: "schedule_content", arguments: { type: "post", id: d.id, scheduled_for: at } })).status).toBe("scheduled");
    const edited = await client.callTool({ name: "update_draft", arguments: { type: "post", id: d.id, body: "Hello, approved edit" } });
    expect(edited.isError, JSON.stringify(edited)).toBeFalsy();
    expect(structured(edited)).toMatchObject({ status: "scheduled", scheduled_for: at });
    expect(asked.map((p) => p.message)).toEqual([expect.stringContaining("schedule"), expect.stringContaining("change the content")]);
    const item = structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } }));
    expect(item.body).toBe("Hello, approved edit");
  });

  it("reports the owner's denial and changes nothing", async () => {
    const u = await makeUser({ publishing: true });
    const { client } = await elicitingClient(u.token, { url: {} }, async (p) => {
      const d = await db();
      setTimeout(() => void decideApproval(d, u.id, p.url!.split("/").pop()!, "denied"), 200);
      return { action: "accept" };
    });
    const d = await draft(client);
    const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } });
    expect(errorOf(res).code).toBe("action_failed");
    expect(errorOf(res).message).toMatch(/did not approve/);
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).id).toBe(d.id);
  });

  it("an accepted URL elicitation approves nothing by itself; a declined one ends the wait with the link", async () => {
    const u = await makeUser({ publishing: true });
    const { client } = await elicitingClient(u.token, { url: {} }, () => ({ action: "decline" }));
    const d = await draft(client);
    const res = await client.callTool({ name: "publish_now", arguments: { type: "post", id: d.id } });
    expect(errorOf(res).code).toBe("confirmation_required");
    expect(await approvalStatus(errorOf(res).confirmation.id)).toBe("pending");
    expect(structured(await client.callTool({ name: "fetch_item", arguments: { type: "post", id: d.id } })).status).toBe("draft");
  });

  it("a cancelled call stops waiting, and only a few calls per user wait at once", async () => {
    const u = await makeUser({ publishing: true });
    const { client } = await elicitingClient(u.token, { url: {} }, () => ({ action: "accept" }));
    // More calls than may wait, all at once: the count holds (checked and taken together).
    const waiting = await Promise.all(Array.from({ length: MAX_WAITING_PER_USER + 5 }, () => draft(client)));
    const controllers = waiting.map(() => new AbortController());
    let answered = 0;
    const calls = waiting.map((d, i) =>
      client
        .callTool({ name: "delete_draft", arguments: { type: "post", id: d.id } }, undefined, { signal: controllers[i].signal })
        .then((r) => ((answered += 1), r))
        .catch((e) => e),
    );
    const open = async () =>
      (await (await db()).select({ status: elicitations.status }).from(elicitations).where(eq(elicitations.userId, u.id))).filter(
        (r) => r.status !== "closed" && r.status !== "cancelled",
      );
    for (let i = 0; i < 100 && (answered < 5 || (await open()).length < MAX_WAITING_PER_USER); i++) await sleep(50);
    expect(answered).toBe(5); // answered at once with the link
    expect(await open()).toHaveLength(MAX_WAITING_PER_USER);
    // One more answers at once with the link instead of waiting.
    const extra = await draft(client);
    const t0 = Date.now();
    const res = await client.callTool({ name: "delete_draft", arguments: { type: "post", id: extra.id } });
    expect(errorOf(res).code).toBe("confirmation_required");
    expect(Date.now() - t0).toBeLessThan(5000);
    // The client cancels (notifications/cancelled): the server's waits end.
    controllers.forEach((c) => c.abort("changed my mind"));
    await Promise.all(calls);
    for (let i = 0; i < 100 && (await open()).length > 0; i++) await sleep(50);
    expect(await open()).toHaveLength(0);
  });
});

describe("links and limits", () => {
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
    const sessionA = sessionOf(await mcpClient(a.token));
    expect(sessionA).toBeTruthy();
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const foreign = await post(b.token, list, sessionA);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).id).toBe(1); // the error answers the request's id
    expect((await post(a.token, list, sessionA.slice(0, -2) + "xx")).status).toBe(404);
  });

  it("refuses a batch of more than 16 messages", async () => {
    const u = await makeUser();
    const batch = Array.from({ length: 17 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "tools/list" }));
    const res = await post(u.token, batch);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/at most 16/);
  });

  describe("with the plans' real limits", () => {
    withRealLimits();

    it("counts answers and other messages against the caller's budget, shared with REST", async () => {
      const u = await makeUser({ plan: "plus" }); // 30 a minute
      for (let i = 0; i < 29; i++) expect((await post(u.token, selfApproval(`confirm:${i}:x`))).status).toBe(202);
      expect((await call("search_content", {}, { token: u.token })).status).toBe(200);
      const refused = await post(u.token, { jsonrpc: "2.0", id: "late", method: "tools/list" });
      expect(refused.status).toBe(429);
      expect((await refused.clone().json()).id).toBe("late");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expectError(await call("search_content", {}, { token: u.token }), 429, "rate_limited");
    });

    it("charges a request before reading its body: refused bodies count, and a caller out of budget is not read past the usual cap", async () => {
      const u = await makeUser({ plan: "plus" }); // 30 a minute
      const send = (body: BodyInit, extra: RequestInit = {}) =>
        inProcessFetch("http://localhost:3000/mcp", { method: "POST", headers: headers(u.token), body, ...extra } as RequestInit);
      // Not JSON, and over the size cap: each is refused, and each costs its point.
      for (let i = 0; i < 15; i++) expect((await send("{nope")).status).toBe(400);
      const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(300 * 1024) } });
      for (let i = 0; i < 15; i++) expect((await send(big)).status).toBe(413);
      expectError(await call("search_content", {}, { token: u.token }), 429, "rate_limited");
      // Out of budget, a body that goes on past 256 KiB and never ends is answered all the same.
      const chunk = new Uint8Array(64 * 1024).fill(32);
      let sent = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull: (c) => (sent++ < 5 ? c.enqueue(chunk) : new Promise<void>(() => {})),
      });
      const res = await send(endless, { duplex: "half" } as RequestInit);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    it("a tool call costs one point, as over REST; out of budget it is a tool error the model can read", async () => {
      const u = await makeUser({ plan: "plus" });
      for (let i = 0; i < 15; i++) expect((await call("search_content", {}, { token: u.token })).status).toBe(200);
      const tool = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_content", arguments: {} } });
      for (let i = 0; i < 15; i++) expect((await (await post(u.token, tool(i))).json()).result.isError).toBeUndefined();
      const refused = await (await post(u.token, tool(99))).json();
      expect(refused.result.isError).toBe(true);
      expect(JSON.parse(refused.result.content[0].text).error.code).toBe("rate_limited");
    });
  });
});
