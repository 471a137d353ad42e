import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer } from "../e2e/harness";
import { rpc2026 } from "../helpers/mcp";

// A task's status and result live in the database: after the built server restarts, tasks/get
// (answered by a new process) returns the same completed task.
const srv = new TestServer();
let token = "";

beforeAll(async () => {
  await srv.setup();
  await srv.firstStart();
  token = JSON.parse((await srv.admin("issue-token", "--email", "owner@example.com", "--app", "Task Runner")).stdout).access_token;
}, 400_000);

afterAll(() => srv.teardown());

const rpc = (method: string, params: Record<string, unknown>, name: string) =>
  rpc2026({ url: `${srv.origin}/mcp`, fetcher: fetch, token, method, name, params, capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });

describe("an MCP task", () => {
  it("survives a restart of the server", async () => {
    const created = await rpc("tools/call", { name: "generate_post", arguments: { topic: "Habits that survive restarts" } }, "generate_post");
    expect(created.result?.resultType, JSON.stringify(created)).toBe("task");
    const taskId = created.result!.taskId as string;
    let before: Record<string, any> | undefined;
    for (let i = 0; i < 100 && before?.status !== "completed"; i++) {
      await new Promise((r) => setTimeout(r, 200));
      before = (await rpc("tasks/get", { taskId }, taskId)).result;
    }
    expect(before?.status).toBe("completed");
    await srv.stop();
    await srv.start();
    const after = (await rpc("tasks/get", { taskId }, taskId)).result;
    expect(after?.status).toBe("completed");
    expect(after?.result).toEqual(before!.result);
    expect(after?.result.structuredContent.draft_id).toBeTruthy();
  }, 120_000);
});
