import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Caller } from "@/lib/domain/context";
import { abortTask, taskShape } from "./runner";
import { failIfAbandoned, findTask, updateOpenTask, type TaskRow } from "./store";
import { findOperation } from "@/lib/operations/registry";

export { startTask, type TaskHandle } from "./runner";

// The tasks extension (io.modelcontextprotocol/tasks) on protocol 2026-07-28: a tool call that
// may outlast its request (publish_now waiting for the owner's approval or a slow platform,
// generation with a slow model) answers at once with a task handle when the client declared
// the extension; the call itself still goes through runOperation, in the background, and its
// outcome is written to the database, where tasks/get finds it from any process.

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

type Caps = { extensions?: Record<string, unknown> };

const declaresTasks = (ctx: ServerContext | undefined) =>
  Boolean(((ctx?.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as Caps | undefined)?.extensions?.[TASKS_EXTENSION]);

/** Whether this call becomes a task: a long-running tool, and a client that declared the extension on this request. */
export function wantsTask(tool: string, ctx: ServerContext): boolean {
  return Boolean(findOperation(tool)?.longRunning) && declaresTasks(ctx);
}

/** The task as tasks/get shows it: its shape plus inputRequests, result or error by status. */
function detailed(row: TaskRow) {
  const r = row.result ?? {};
  const extra =
    row.status === "input_required"
      ? { inputRequests: r.inputRequests ?? {} }
      : row.status === "completed"
        ? { result: r }
        : row.status === "failed"
          ? { error: r.error }
          : {};
  return { ...taskShape(row), ...extra };
}

const TaskParams = z.looseObject({ taskId: z.string().max(100) });
const UpdateParams = z.looseObject({ taskId: z.string().max(100), inputResponses: z.record(z.string(), z.unknown()).optional() });

const unknownTask = () => new ProtocolError(ProtocolErrorCode.InvalidParams, "Unknown task: it does not exist, expired, or belongs to another app.");

/** tasks/* only for a request that declares the extension (-32021 names it otherwise). */
async function ownTask(caller: Caller, id: string, ctx: ServerContext | undefined): Promise<TaskRow> {
  if (!declaresTasks(ctx)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
  const row = await findTask(caller, id);
  if (!row) throw unknownTask();
  return failIfAbandoned(row);
}

type Registrar = {
  setRequestHandler: (method: string, schemas: { params: z.ZodType }, handler: (params: never, ctx: ServerContext) => Promise<Record<string, unknown>>) => void;
};

/** tasks/get, tasks/update and tasks/cancel of this caller's tasks. */
export function registerTaskMethods(server: Registrar, caller: Caller) {
  server.setRequestHandler("tasks/get", { params: TaskParams }, async (p: z.infer<typeof TaskParams>, ctx?: ServerContext) =>
    detailed(await ownTask(caller, p.taskId, ctx)),
  );
  server.setRequestHandler("tasks/update", { params: UpdateParams }, async (p: z.infer<typeof UpdateParams>, ctx?: ServerContext) => {
    const row = await ownTask(caller, p.taskId, ctx);
    // The SDK lifts inputResponses out of the params it validates (as for any retried request).
    const responses = p.inputResponses ?? ctx?.mcpReq.inputResponses ?? {};
    const outstanding = (row.status === "input_required" ? (row.result?.inputRequests ?? {}) : {}) as Record<string, unknown>;
    for (const [key, answer] of Object.entries(responses)) {
      if (!(key in outstanding)) continue; // unknown or already answered keys are ignored
      const action = (answer as { action?: unknown })?.action;
      // Opening the page is the client's part; the owner decides there. A refusal to open it
      // ends the wait: the running call answers with the link (task-runner.ts).
      if (action === "decline" || action === "cancel") {
        await updateOpenTask(row.id, { status: "working", statusMessage: "The user did not open the approval page.", result: { declined: true } }, [
          "input_required",
        ]);
      }
    }
    return {};
  });
  server.setRequestHandler("tasks/cancel", { params: TaskParams }, async (p: z.infer<typeof TaskParams>, ctx?: ServerContext) => {
    const row = await ownTask(caller, p.taskId, ctx);
    if (await updateOpenTask(row.id, { status: "cancelled", statusMessage: "Cancelled by the client." })) abortTask(row.id);
    return {};
  });
}
