import { eq } from "drizzle-orm";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { replacePorts } from "@/lib/adapters/ports";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { revokeApp } from "@/lib/domain/apps/tokens";
import { setPublishingAllowed } from "@/lib/domain/accounts/connections";
import { allowancePeriods, mcpTasks, postDrafts, users } from "@/drizzle/schema";
import { call, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { inProcessFetch, postLegacy, rpc2026, type Rpc } from "../helpers/mcp";
import { writer } from "@/lib/adapters/ai";
import { fixedModel } from "../helpers/model";
import { withRealLimits } from "../helpers/rate-limit";

withDatabase();

// The tasks extension on 2026-07-28: publish_now and generation answer with a task handle when
// the client declared io.modelcontextprotocol/tasks; tasks/get, tasks/update and tasks/cancel
// read and move the task stored in the database.

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: { url: {} } };
const rpc = (token: string, method: string, params: Record<string, unknown>, name: string, capabilities: Record<string, unknown> = TASKS) =>
  rpc2026({ token, method, name, params, capabilities });

const tool = (token: string, name: string, args: Record<string, unknown>, caps?: Record<string, unknown>) =>
  rpc(token, "tools/call", { name, arguments: args }, name, caps);
const get = (token: string, taskId: string) => rpc(token, "tasks/get", { taskId }, taskId);

async function until(token: string, taskId: string, status: string) {
  for (let i = 0; i < 100; i++) {
    const r = await get(token, taskId);
    if (r.result?.status === status) return r.result;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`task ${taskId} never became ${status}: ${JSON.stringify(await get(token, taskId))}`);
}

const codeOf = (r: Rpc) => JSON.parse(r.result?.content?.[0]?.text ?? "{}").error?.code;

/** The task as stored once completed, read without tasks/get (which needs a live token and spends budget). */
async function completedInStore(taskId: string) {
  let task: typeof mcpTasks.$inferSelect | undefined;
  for (let i = 0; i < 100 && task?.status !== "completed"; i++, await new Promise((r) => setTimeout(r, 100)))
    [task] = await (await db()).select().from(mcpTasks).where(eq(mcpTasks.id, taskId));
  return task;
}

describe("tasks (io.modelcontextprotocol/tasks)", () => {
  it("are advertised in server/discover", async () => {
    const u = await makeUser();
    const r = await rpc(u.token, "server/discover", {}, "", TASKS);
    expect(r.result?.capabilities.extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
  });

  it("publish_now becomes a task that waits for the owner's approval and completes", async () => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "Published from a task" }, { token: u.token });
    const created = await tool(u.token, "publish_now", { type: "post", id: d.body.id });
    expect(created.result, JSON.stringify(created)).toMatchObject({ resultType: "task", status: "working", ttlMs: 3600000, pollIntervalMs: 5000 });
    expect(created.result!.task).toBeUndefined();
    const taskId = created.result!.taskId;
    const waiting = await until(u.token, taskId, "input_required");
    const [key] = Object.keys(waiting.inputRequests);
    const url = waiting.inputRequests[key].params.url as string;
    expect(waiting.inputRequests[key]).toMatchObject({ method: "elicitation/create", params: { mode: "url" } });
    expect((await rpc(u.token, "tasks/update", { taskId, inputResponses: { [key]: { action: "accept" } } }, taskId)).result).toMatchObject({});
    await decideApproval(await db(), u.id, url.split("/").pop()!, "approved");
    const done = await until(u.token, taskId, "completed");
    expect(done.resultType).toBe("complete");
    expect(done.result.structuredContent.url).toMatch(/\/sandbox\/pronet\//);
    expect((await call("fetch_item", { type: "post", id: d.body.id }, { token: u.token })).body.status).toBe("published");
  });

  it("a declined approval page, or a refusal, completes the task with isError; cancel ends a wait", async () => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "Not this one" }, { token: u.token });
    const t1 = (await tool(u.token, "publish_now", { type: "post", id: d.body.id })).result!.taskId;
    const w = await until(u.token, t1, "input_required");
    await rpc(u.token, "tasks/update", { taskId: t1, inputResponses: { [Object.keys(w.inputRequests)[0]]: { action: "decline" } } }, t1);
    const declined = await until(u.token, t1, "completed");
    expect(declined.result.isError).toBe(true);
    // As on the other paths: the approval stays open on the page, and the answer is its link.
    expect(JSON.parse(declined.result.content[0].text).error.code).toBe("confirmation_required");
    const t3 = (await tool(u.token, "publish_now", { type: "post", id: d.body.id })).result!.taskId;
    const w3 = await until(u.token, t3, "input_required");
    const url3 = (Object.values(w3.inputRequests)[0] as { params: { url: string } }).params.url;
    await decideApproval(await db(), u.id, url3.split("/").pop()!, "denied");
    const denied = await until(u.token, t3, "completed");
    expect(JSON.parse(denied.result.content[0].text).error.message).toMatch(/did not approve/);
    const t2 = (await tool(u.token, "publish_now", { type: "post", id: d.body.id })).result!.taskId;
    await until(u.token, t2, "input_required");
    expect((await rpc(u.token, "tasks/cancel", { taskId: t2 }, t2)).error).toBeUndefined();
    expect((await get(u.token, t2)).result?.status).toBe("cancelled");
    const missing = await tool(u.token, "publish_now", { type: "post", id: "00000000-0000-4000-8000-000000000000" });
    const refused = await until(u.token, missing.result!.taskId, "completed");
    expect(JSON.parse(refused.result.content[0].text).error.code).toBe("action_failed");
    expect((await call("fetch_item", { type: "post", id: d.body.id }, { token: u.token })).body.status).toBe("draft");
  });

  // The owner ends an app's say over publishing while its publish_now task waits for approval:
  // the approval page left open cannot approve, and the task ends refused with nothing posted.
  it.each([
    ["turning off publishing for apps", async (u: TestUser) => setPublishingAllowed(await db(), u.id, false)],
    ["disconnecting the app", async (u: TestUser) => expect(await revokeApp(await db(), u.id, u.appId)).toBe(true)],
  ] as const)("%s ends its open approvals: the waiting task publishes nothing", async (_, end) => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "Asked for before the owner said no more" }, { token: u.token });
    const taskId = (await tool(u.token, "publish_now", { type: "post", id: d.body.id })).result!.taskId;
    const w = await until(u.token, taskId, "input_required");
    const approvalId = (Object.values(w.inputRequests)[0] as { params: { url: string } }).params.url.split("/").pop()!;
    await end(u);
    expect(await decideApproval(await db(), u.id, approvalId, "approved")).toBe(false);
    // Read from the store (a disconnected app's token is gone): it ends refused.
    const task = await completedInStore(taskId);
    expect(task?.status).toBe("completed");
    expect(JSON.parse((task!.result as { content: { text: string }[] }).content[0].text).error.message).toMatch(/did not approve/);
    const [post] = await (await db()).select().from(postDrafts).where(eq(postDrafts.id, d.body.id));
    expect(post.status).toBe("draft");
  });

  it("publishing turned off after the owner approved, before the waiting task used the approval, posts nothing", async () => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "Approved a moment before the switch went off" }, { token: u.token });
    const taskId = (await tool(u.token, "publish_now", { type: "post", id: d.body.id })).result!.taskId;
    const w = await until(u.token, taskId, "input_required");
    const approvalId = (Object.values(w.inputRequests)[0] as { params: { url: string } }).params.url.split("/").pop()!;
    // The switch, as another process may flip it between the approval and the task's next
    // look: the task's caller was read with publishing on, and the approval stands.
    await (await db()).update(users).set({ publishingAllowed: false }).where(eq(users.id, u.id));
    expect(await decideApproval(await db(), u.id, approvalId, "approved")).toBe(true);
    const task = await completedInStore(taskId);
    expect(JSON.parse((task!.result as { content: { text: string }[] }).content[0].text).error.code).toBe("publishing_not_allowed");
    const [post] = await (await db()).select().from(postDrafts).where(eq(postDrafts.id, d.body.id));
    expect(post.status).toBe("draft");
  });

  it("open tasks whose process is gone, or that expired, do not count against the app's 10", async () => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "Orphans" }, { token: u.token });
    const open: string[] = [];
    for (let i = 0; i < 10; i++) open.push((await tool(u.token, "publish_now", { type: "post", id: d.body.id })).result!.taskId);
    // A restart: the ten waits lost their process (untouched for two minutes), or outlived their time.
    const long = new Date(Date.now() - 120_000);
    await (await db()).update(mcpTasks).set({ updatedAt: long }).where(eq(mcpTasks.id, open[0]));
    for (const id of open.slice(1, 5)) await (await db()).update(mcpTasks).set({ updatedAt: long }).where(eq(mcpTasks.id, id));
    for (const id of open.slice(5)) await (await db()).update(mcpTasks).set({ expiresAt: long }).where(eq(mcpTasks.id, id));
    expect((await tool(u.token, "generate_post", { topic: "After a restart" })).result?.resultType).toBe("task");
    for (const t of open) await rpc(u.token, "tasks/cancel", { taskId: t }, t);
  });

  it("holds the 10 open tasks an app may have when 16 calls come at once", async () => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "All at once" }, { token: u.token });
    const answers = await Promise.all(Array.from({ length: 16 }, () => tool(u.token, "publish_now", { type: "post", id: d.body.id })));
    const tasks = answers.filter((a) => a.result?.resultType === "task");
    expect(tasks).toHaveLength(10);
    const open = await (await db()).select().from(mcpTasks).where(eq(mcpTasks.userId, u.id));
    expect(open).toHaveLength(10);
    for (const t of tasks) await rpc(u.token, "tasks/cancel", { taskId: t.result!.taskId }, t.result!.taskId);
  });

  it("an app has at most 10 open tasks; beyond that a call answers directly", async () => {
    const u = await makeUser({ publishing: true });
    const d = await call("create_draft", { type: "post", body: "Many waits" }, { token: u.token });
    const open: string[] = [];
    for (let i = 0; i < 10; i++) open.push((await tool(u.token, "publish_now", { type: "post", id: d.body.id })).result!.taskId);
    const direct = await tool(u.token, "publish_now", { type: "post", id: d.body.id });
    expect(direct.result?.resultType).toBe("input_required");
    for (const t of open) await rpc(u.token, "tasks/cancel", { taskId: t }, t);
    expect((await tool(u.token, "generate_post", { topic: "After the waits" })).result?.resultType).toBe("task");
  });

  it("refuses NUL characters and absurd nesting as invalid_request before a task stores them or an approval hashes them", async () => {
    const u = await makeUser({ publishing: true });
    // A task would store the topic (PostgreSQL's jsonb cannot hold \u0000).
    const nul = await tool(u.token, "generate_post", { topic: "a\u0000b" });
    expect(nul.result?.isError, JSON.stringify(nul)).toBe(true);
    expect(codeOf(nul)).toBe("invalid_request");
    // The approval's hash of the arguments would walk 5,000 levels (sent as written: a client's
    // JSON.stringify would not go so deep either).
    const deep = "[".repeat(5000) + "1" + "]".repeat(5000);
    const nested = await rpc2026({
      token: u.token,
      method: "tools/call",
      name: "publish_now",
      params: { name: "publish_now", arguments: { type: "post", id: "DEEP" } },
      capabilities: TASKS,
      fetcher: ((url: string, init: RequestInit) => inProcessFetch(url, { ...init, body: String(init.body).replace('"DEEP"', deep) })) as typeof fetch,
    });
    expect(nested.result?.isError, JSON.stringify(nested).slice(0, 500)).toBe(true);
    expect(codeOf(nested)).toBe("invalid_request");
    expect(await (await db()).select().from(mcpTasks).where(eq(mcpTasks.userId, u.id))).toEqual([]);
  });

  it("generation becomes a task; without the extension the same call answers directly", async () => {
    const u = await makeUser();
    const created = await tool(u.token, "generate_post", { topic: "Remote work habits" });
    expect(created.result?.resultType, JSON.stringify(created)).toBe("task");
    const done = await until(u.token, created.result!.taskId, "completed");
    expect(done.result.structuredContent.draft_id).toBeTruthy();
    const direct = await tool(u.token, "generate_post", { topic: "Remote work habits" }, {});
    expect(direct.result?.resultType).toBe("complete");
    expect(direct.result?.structuredContent.draft_id).toBeTruthy();
  });

  describe("a generation given up on while the model writes saves no draft and gives the allowance back", () => {
    afterEach(() => replacePorts());
    /** A model that answers only when released, whatever its caller wants meanwhile. */
    function heldModel() {
      let started!: () => void;
      let release!: () => void;
      const began = new Promise<void>((r) => (started = r));
      const released = new Promise<void>((r) => (release = r));
      const answer = fixedModel("Remote work runs on writing things down.");
      replacePorts({
        model: writer(
          () =>
            new MockLanguageModelV3({
              doGenerate: async (options) => {
                started();
                await released;
                return answer.doGenerate(options);
              },
            }),
        ),
      });
      return { began, release };
    }
    const spent = async (userId: string) =>
      (await (await db()).select({ used: allowancePeriods.postsUsed }).from(allowancePeriods).where(eq(allowancePeriods.userId, userId)))[0]?.used ?? 0;
    async function nothingSaved(userId: string) {
      await expect.poll(() => spent(userId), { timeout: 10_000 }).toBe(0); // given back once the call ended
      expect(await (await db()).select().from(postDrafts).where(eq(postDrafts.userId, userId))).toEqual([]);
    }

    it("tasks/cancel", async () => {
      const u = await makeUser();
      const model = heldModel();
      const created = await tool(u.token, "generate_post", { topic: "Remote work habits" });
      await model.began;
      expect(await spent(u.id)).toBe(1);
      expect((await rpc(u.token, "tasks/cancel", { taskId: created.result!.taskId }, created.result!.taskId)).error).toBeUndefined();
      model.release();
      await nothingSaved(u.id);
      expect((await get(u.token, created.result!.taskId)).result?.status).toBe("cancelled");
    });

    it("a direct call on a 2025-era request that the client aborts", async () => {
      const u = await makeUser();
      const model = heldModel();
      const stop = new AbortController();
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "generate_post", arguments: { topic: "Remote work habits" } } };
      const sent = postLegacy(u.token, JSON.stringify(call), { signal: stop.signal });
      await model.began;
      stop.abort();
      model.release();
      await sent.catch(() => {});
      await nothingSaved(u.id);
    });

    it("a direct call on a 2025-era request that the client cancels with notifications/cancelled, and only that one", async () => {
      const u = await makeUser();
      const initialize = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } };
      const opened = await postLegacy(u.token, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: initialize }));
      const session = opened.headers.get("mcp-session-id")!;
      expect(session).toBeTruthy();
      const call = (id: number) =>
        postLegacy(
          u.token,
          JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "generate_post", arguments: { topic: "Remote work" } } }),
          {
            session,
          },
        ).then((r) => r.json());
      const cancel = async (id: number, s?: string) => {
        const body = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "user stopped" } };
        expect((await postLegacy(u.token, JSON.stringify(body), { session: s })).status).toBe(202);
      };
      const drafts = async () => (await (await db()).select().from(postDrafts).where(eq(postDrafts.userId, u.id))).length;

      // Another id, or the same id outside the session, names another call: this one writes.
      let model = heldModel();
      const kept = call(7);
      await model.began;
      await cancel(8, session);
      await cancel(7);
      model.release();
      expect((await kept).result?.structuredContent?.draft_id, JSON.stringify(await kept)).toBeTruthy();
      expect(await drafts()).toBe(1);

      model = heldModel();
      const stopped = call(9);
      await model.began;
      await cancel(9, session);
      model.release();
      expect((await stopped).result?.isError, JSON.stringify(await stopped)).toBe(true);
      await expect.poll(() => spent(u.id), { timeout: 10_000 }).toBe(1);
      expect(await drafts()).toBe(1);
    });

    it("a direct call whose request the client aborts", async () => {
      const u = await makeUser();
      const model = heldModel();
      const stop = new AbortController();
      const fetcher = ((url: string, init: RequestInit) => inProcessFetch(url, { ...init, signal: stop.signal })) as typeof fetch;
      const call = rpc2026({
        token: u.token,
        method: "tools/call",
        name: "generate_post",
        params: { name: "generate_post", arguments: { topic: "Remote work habits" } },
        capabilities: {},
        fetcher,
      });
      await model.began;
      stop.abort();
      await call.catch(() => {});
      model.release();
      await nothingSaved(u.id);
    });
  });

  it("another user's or app's task is unknown; an abandoned task (its process gone) reads as failed", async () => {
    const u = await makeUser();
    const other = await makeUser();
    const created = await tool(u.token, "generate_post", { topic: "Tasks" });
    const taskId = created.result!.taskId;
    await until(u.token, taskId, "completed");
    expect((await get(other.token, taskId)).error?.code).toBe(-32602);
    // tasks/* need the extension declared on the request itself.
    const undeclared = (await rpc(u.token, "tasks/get", { taskId }, taskId, {})) as Rpc & { error?: { data?: unknown } };
    expect(undeclared.error?.code).toBe(-32021);
    expect(undeclared.error?.data).toEqual({ requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });
    expect((await get(u.token, "00000000-0000-4000-8000-000000000000")).error?.code).toBe(-32602);
    // An id no UUID reaches no query: unknown, and no database error's text in the answer.
    for (const id of ["-".repeat(36), "g".repeat(36)]) {
      const odd = (await get(u.token, id)) as Rpc & { error?: { message?: string } };
      expect(odd.error?.code, JSON.stringify(odd)).toBe(-32602);
      expect(odd.error?.message).toMatch(/^Unknown task/);
    }
    // A working task nobody touched for a minute: the process that ran it is gone.
    await (
      await db()
    )
      .update(mcpTasks)
      .set({ status: "working", result: null, updatedAt: new Date(Date.now() - 120_000) })
      .where(eq(mcpTasks.id, taskId));
    const r = await get(u.token, taskId);
    expect(r.result?.status).toBe("failed");
    expect(r.result?.error.message).toMatch(/restarted/);
  });
});

describe("tasks and the budget", () => {
  withRealLimits();

  it("a call that becomes a task costs one point, as it would answering directly", async () => {
    const u = await makeUser({ plan: "plus" }); // 30 a minute
    for (let i = 0; i < 29; i++) expect((await call("search_content", {}, { token: u.token })).status).toBe(200);
    const taskId = (await tool(u.token, "generate_post", { topic: "The thirtieth request" })).result!.taskId;
    // Read from the store: polling with tasks/get would spend the budget too.
    const task = await completedInStore(taskId);
    expect(task?.result?.isError, JSON.stringify(task?.result)).toBeUndefined();
    expect((await call("search_content", {}, { token: u.token })).status).toBe(429);
  });

  it("a call out of budget, or with arguments the tool refuses, answers directly and stores no task", async () => {
    const u = await makeUser({ plan: "plus" }); // 30 a minute
    const junk = await tool(u.token, "generate_post", { topic: "Junk", junk: "x".repeat(100_000) });
    expect(codeOf(junk), JSON.stringify(junk).slice(0, 300)).toBe("invalid_request");
    for (let i = 0; i < 29; i++) expect((await call("search_content", {}, { token: u.token })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const over = await tool(u.token, "generate_post", { topic: "Over budget" });
      expect(codeOf(over), JSON.stringify(over).slice(0, 300)).toBe("rate_limited");
    }
    expect(await (await db()).select().from(mcpTasks).where(eq(mcpTasks.userId, u.id))).toEqual([]);
  });
});
