import { and, eq } from "drizzle-orm";
import { db } from "@/lib/adapters/db";
import type { Caller } from "@/lib/domain/context";
import { approvals } from "@/drizzle/schema";

/**
 * Where an approval of this caller (user and app) stands, read fresh: calls that wait for the
 * owner's decision on the page (a 2026-07-28 retry, a task) poll it, whichever process decided.
 */
export async function approvalState(caller: Caller, id: string) {
  const [row] = await (
    await db()
  )
    .select({ status: approvals.status, expiresAt: approvals.expiresAt })
    .from(approvals)
    .where(and(eq(approvals.id, id), eq(approvals.userId, caller.userId), eq(approvals.appId, caller.appId)));
  return row;
}
