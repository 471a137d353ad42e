import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { db, type Db } from "@/lib/adapters/db";
import type { Caller } from "@/lib/domain/context";
import { isUuid } from "@/lib/core/ids";
import { mcpTasks, type McpTaskStatus } from "@/drizzle/schema";

// MCP tasks in the database, so a task's status and result outlive the process that ran it and
// any process can answer tasks/get. `result` holds what tasks/get shows beyond the status: the
// outstanding inputRequests while input_required, the CallToolResult once completed, the
// JSON-RPC error once failed.

export type TaskRow = typeof mcpTasks.$inferSelect;

export const TASK_TTL_MS = 3600_000;
export const POLL_INTERVAL_MS = 5000;
/** A running task touches its row this often; one untouched for STALE_MS lost its process. */
export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 60_000;

const OPEN: McpTaskStatus[] = ["working", "input_required"];

/** Open tasks one app may have at once; beyond, calls answer directly (and meet the rate limit there). */
export const MAX_OPEN_PER_APP = 10;

/** The app's open tasks that are alive: unexpired, and touched by their process lately (a restart leaves others behind). */
async function openTaskCount(tx: Db, caller: Caller, now: Date): Promise<number> {
  const rows = await tx
    .select({ id: mcpTasks.id })
    .from(mcpTasks)
    .where(
      and(
        eq(mcpTasks.userId, caller.userId),
        eq(mcpTasks.appId, caller.appId),
        inArray(mcpTasks.status, OPEN),
        gt(mcpTasks.expiresAt, now),
        gt(mcpTasks.updatedAt, new Date(now.getTime() - STALE_MS)),
      ),
    )
    .limit(MAX_OPEN_PER_APP);
  return rows.length;
}

/**
 * A new task, or null when the app has MAX_OPEN_PER_APP alive open ones. Counted and inserted
 * under one lock per app: calls that arrive together cannot all pass the count.
 */
export async function createTask(caller: Caller, tool: string, args: Record<string, unknown>, now = new Date()): Promise<TaskRow | null> {
  return (await db()).transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mcp-tasks:${caller.appId}`}))`);
    if ((await openTaskCount(tx, caller, now)) >= MAX_OPEN_PER_APP) return null;
    // Expired tasks of this user go when a new one comes: the table holds only live ones.
    await tx.delete(mcpTasks).where(and(eq(mcpTasks.userId, caller.userId), lt(mcpTasks.expiresAt, now)));
    const [row] = await tx
      .insert(mcpTasks)
      .values({
        userId: caller.userId,
        appId: caller.appId,
        tool,
        arguments: args,
        status: "working",
        ttlMs: TASK_TTL_MS,
        pollIntervalMs: POLL_INTERVAL_MS,
        expiresAt: new Date(now.getTime() + TASK_TTL_MS),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row;
  });
}

/** The caller's own unexpired task (another user's or app's is the same as a missing one). */
export async function findTask(caller: Caller, id: string): Promise<TaskRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await (
    await db()
  )
    .select()
    .from(mcpTasks)
    .where(and(eq(mcpTasks.id, id), eq(mcpTasks.userId, caller.userId), eq(mcpTasks.appId, caller.appId)));
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
  return row;
}

type Change = { status: McpTaskStatus; statusMessage?: string | null; result?: Record<string, unknown> | null };

/** Moves a task that is still open (not completed, failed or cancelled); false when it no longer was. */
export async function updateOpenTask(id: string, change: Change, from: McpTaskStatus[] = OPEN): Promise<boolean> {
  const rows = await (
    await db()
  )
    .update(mcpTasks)
    .set({ ...change, updatedAt: new Date() })
    .where(and(eq(mcpTasks.id, id), inArray(mcpTasks.status, from)))
    .returning({ id: mcpTasks.id });
  return rows.length > 0;
}

/** The running process's sign of life; false once the task is no longer open (cancelled, say). */
export async function touchTask(id: string): Promise<boolean> {
  const rows = await (
    await db()
  )
    .update(mcpTasks)
    .set({ updatedAt: new Date() })
    .where(and(eq(mcpTasks.id, id), inArray(mcpTasks.status, OPEN)))
    .returning({ id: mcpTasks.id });
  return rows.length > 0;
}

/** An open task whose process stopped touching it (a restart, a crash) is failed. */
export async function failIfAbandoned(row: TaskRow, now = new Date()): Promise<TaskRow> {
  if (!OPEN.includes(row.status) || now.getTime() - row.updatedAt.getTime() < STALE_MS) return row;
  const error = { code: -32603, message: "The server restarted while this task ran; its outcome is unknown. Check the item (fetch_item) before trying again." };
  const [updated] = await (
    await db()
  )
    .update(mcpTasks)
    .set({ status: "failed", statusMessage: error.message, result: { error }, updatedAt: now })
    .where(and(eq(mcpTasks.id, row.id), inArray(mcpTasks.status, OPEN), lt(mcpTasks.updatedAt, new Date(now.getTime() - STALE_MS))))
    .returning();
  return updated ?? row;
}

export async function taskState(id: string) {
  const [row] = await (await db()).select({ status: mcpTasks.status, result: mcpTasks.result }).from(mcpTasks).where(eq(mcpTasks.id, id));
  return row;
}
