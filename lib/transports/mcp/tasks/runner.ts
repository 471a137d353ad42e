import { inputRequired } from "@modelcontextprotocol/server";
import type { Caller } from "@/lib/domain/context";
import { decisionPage, type Confirmation } from "@/lib/core/errors";
import type { Operation } from "@/lib/operations/define";
import type { Prepaid } from "@/lib/operations/budget";
import { runOperation, type Decision } from "@/lib/operations/run";
import { approvalState } from "../approvals/approval-state";
import { notApproved } from "../approvals/legacy-confirm";
import { approvalMessage } from "../approvals/input-required";
import { errorResult, okResult } from "../results";
import { createTask, HEARTBEAT_MS, taskState, touchTask, updateOpenTask, type TaskRow } from "./store";

// Running the call behind a task: in the background of the process that created it, through
// runOperation like any call, touching the task's row (heartbeat) and recording the outcome.

const WAIT_POLL_MS = 500;

/** A task handle (CreateTaskResult), which tools/call answers in place of a CallToolResult (see server.ts). */
export type TaskHandle = { resultType: "task" } & ReturnType<typeof taskShape>;

/** A task as the wire shows it (CreateTaskResult and tasks/get share it). */
export function taskShape(row: TaskRow) {
  return {
    taskId: row.id,
    status: row.status,
    ...(row.statusMessage ? { statusMessage: row.statusMessage } : {}),
    createdAt: row.createdAt.toISOString(),
    lastUpdatedAt: row.updatedAt.toISOString(),
    ttlMs: row.ttlMs ?? null,
    ...(row.pollIntervalMs ? { pollIntervalMs: row.pollIntervalMs } : {}),
  };
}

/**
 * The confirm hook inside a task: the task turns input_required with a URL-mode elicitation of
 * the approval page, and waits (until the approval expires) for the owner's decision there, a
 * decline in tasks/update, or tasks/cancel.
 */
function taskConfirm(caller: Caller, taskId: string) {
  // The task was cancelled (or expired) while it waited: nothing more is recorded.
  const ended: Decision = { stop: null };
  return async (c: Confirmation): Promise<Decision> => {
    const request = inputRequired.elicitUrl({ url: decisionPage(c), message: approvalMessage(caller, c) });
    const statusMessage = `Waiting for the account owner's approval at ${decisionPage(c)}`;
    if (!(await updateOpenTask(taskId, { status: "input_required", statusMessage, result: { inputRequests: { [`approval-${c.id}`]: request } } })))
      return ended;
    for (;;) {
      const [a, task] = [await approvalState(caller, c.id), await taskState(taskId)];
      // The client would not open the page (tasks/update): as on the other paths, the link is the answer.
      if (task?.status === "working" && task.result?.declined) return "not_now";
      if (task?.status !== "input_required") return ended;
      if (a?.status === "denied") throw notApproved();
      if (a?.status === "approved") break;
      if (!a || a.status !== "pending" || a.expiresAt.getTime() <= Date.now()) return "not_now";
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    }
    await updateOpenTask(taskId, { status: "working", statusMessage: "Approved by the owner; running.", result: null });
    return "approved";
  };
}

/**
 * The calls running behind tasks in this process. tasks/cancel aborts one here at once; a
 * cancellation answered by another process is seen at the next heartbeat. The call then saves
 * nothing if it has not yet (a generation's draft: stillWanted).
 */
const running = new Map<string, AbortController>();

export const abortTask = (id: string) => running.get(id)?.abort();

/** Runs the call behind a task and records its outcome. Never throws. */
async function runTask(caller: Caller, op: Operation, args: Record<string, unknown>, requestId: string, task: TaskRow, prepaid?: Prepaid) {
  const stop = new AbortController();
  running.set(task.id, stop);
  const beat = setInterval(
    () =>
      void touchTask(task.id).then(
        (open) => open || stop.abort(),
        () => {},
      ),
    HEARTBEAT_MS,
  );
  try {
    const out = await runOperation(caller, op, () => args, { requestId, confirm: taskConfirm(caller, task.id), prepaid, signal: stop.signal });
    if (out.kind === "stopped") return;
    // The action happened: that is recorded even over a cancellation that came too late.
    const result = out.kind === "done" ? okResult(out.result) : errorResult(out.refusal, requestId);
    await updateOpenTask(task.id, { status: "completed", statusMessage: null, result: result as Record<string, unknown> }, [
      "working",
      "input_required",
      "cancelled",
    ]);
  } catch (e) {
    // A refusal is a tool result (completed with isError), as on the synchronous path.
    await updateOpenTask(task.id, { status: "completed", statusMessage: null, result: errorResult(e, requestId) as Record<string, unknown> }).catch(() => {});
  } finally {
    clearInterval(beat);
    running.delete(task.id);
  }
}

/**
 * Creates the task (durably, before answering) and starts the call behind it; null when the
 * arguments are ones the tool refuses (answered directly, and never stored) or the app has too
 * many open. The call takes the point its request paid (`prepaid`), as it would have
 * answering directly.
 */
export async function startTask(
  caller: Caller,
  op: Operation,
  args: Record<string, unknown>,
  requestId: string,
  prepaid?: Prepaid,
): Promise<TaskHandle | null> {
  if (!op.input.safeParse(args).success) return null;
  const task = await createTask(caller, op.name, args);
  if (!task) return null;
  void runTask(caller, op, args, requestId, task, prepaid);
  return { resultType: "task", ...taskShape(task) };
}
