import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { allowancePeriods } from "@/drizzle/schema";
import { periodOf, resetsAt } from "../owner/allowances";

// X charges for each post read: an owner's reads of X for engagement are capped each calendar
// month (METRICS_X_READS_PER_MONTH), counted before the request is made.

/** Takes up to `wanted` reads from this month's budget; returns how many were granted. */
export async function takeXReads(db: Db, userId: string, wanted: number, limit: number, now: Date): Promise<number> {
  if (wanted <= 0 || limit <= 0) return 0;
  const period = periodOf(now);
  return db.transaction(async (tx) => {
    await tx.insert(allowancePeriods).values({ userId, period }).onConflictDoNothing();
    const mine = and(eq(allowancePeriods.userId, userId), eq(allowancePeriods.period, period));
    const [row] = await tx.select({ used: allowancePeriods.xReadsUsed }).from(allowancePeriods).where(mine).for("update");
    const granted = Math.max(0, Math.min(wanted, limit - (row?.used ?? 0)));
    if (granted)
      await tx
        .update(allowancePeriods)
        .set({ xReadsUsed: sql`${allowancePeriods.xReadsUsed} + ${granted}` })
        .where(mine);
    return granted;
  });
}

/** This month's X reads: used and allowed. */
export async function xReads(db: Db, userId: string, limit: number, now: Date): Promise<{ used: number; limit: number; resets_at: string }> {
  const [row] = await db
    .select({ used: allowancePeriods.xReadsUsed })
    .from(allowancePeriods)
    .where(and(eq(allowancePeriods.userId, userId), eq(allowancePeriods.period, periodOf(now))));
  return { used: row?.used ?? 0, limit, resets_at: resetsAt(now).toISOString() };
}
