import { and, eq, isNull, lte, min, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { draftTable, type DraftType } from "../drafts/drafts";
import { metricWindows, planRead, type Window } from "./schedule";

// The schedule of reads after publishing, shared by engagement reads (METRICS_AFTER) and
// receipts (RECEIPTS_AFTER): each track keeps its own three columns on the draft (the next
// window's index, its time, done). At most once per post and window: one transaction moves
// each due post to its next window (FOR UPDATE SKIP LOCKED, so two processes never take the
// same one), and only then is the network read. A process that stops in between loses that
// window's read; none is repeated.

export type Track = "metrics" | "receipt";

/** Posts one pass claims (the rest wait for the next pass). */
const PASS_LIMIT = 500;

export type Due = {
  type: DraftType;
  id: string;
  userId: string;
  accountId: string | null;
  postId: string;
  url: string | null;
  publishedAt: Date;
  window: string;
};

function columns(t: ReturnType<typeof draftTable>, track: Track) {
  return track === "metrics"
    ? {
        next: t.metricsNext,
        dueAt: t.metricsDueAt,
        done: t.metricsDone,
        set: (next: number, dueAt: Date | null, done: boolean) => ({ metricsNext: next, metricsDueAt: dueAt, metricsDone: done }),
      }
    : {
        next: t.receiptNext,
        dueAt: t.receiptDueAt,
        done: t.receiptDone,
        set: (next: number, dueAt: Date | null, done: boolean) => ({ receiptNext: next, receiptDueAt: dueAt, receiptDone: done }),
      };
}

const waiting = (t: ReturnType<typeof draftTable>, track: Track) => and(eq(t.status, "published"), eq(columns(t, track).done, false));

/** Claims the posts of `type` whose read on `track` has come due, each moved to its next window. */
export async function claimDue(db: Db, type: DraftType, track: Track, windows: Window[], now: Date): Promise<Due[]> {
  const t = draftTable(type);
  const c = columns(t, track);
  const firstDue = new Date(now.getTime() - windows[0].ms);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: t.id, userId: t.userId, accountId: t.accountId, postId: t.platformPostId, url: t.platformUrl, publishedAt: t.publishedAt, next: c.next })
      .from(t)
      .where(and(waiting(t, track), or(lte(c.dueAt, now), and(isNull(c.dueAt), lte(t.publishedAt, firstDue)))))
      .limit(PASS_LIMIT)
      .for("update", { skipLocked: true });
    const due: Due[] = [];
    for (const r of rows) {
      const plan = r.publishedAt && planRead(windows, r.publishedAt, r.next, now);
      await tx
        .update(t)
        .set(plan ? c.set(plan.nextIndex, plan.nextDueAt, !plan.nextDueAt) : c.set(r.next, null, true))
        .where(eq(t.id, r.id));
      if (plan && r.postId && r.publishedAt)
        due.push({
          type,
          id: r.id,
          userId: r.userId,
          accountId: r.accountId,
          postId: r.postId,
          url: r.url,
          publishedAt: r.publishedAt,
          window: windows[plan.index].label,
        });
    }
    return due;
  });
}

/** When the next read of `track` comes due (for the loop's sleep), or null for none. */
export async function nextDue(db: Db, track: Track, spec: string): Promise<Date | null> {
  const windows = metricWindows(spec);
  if (!windows.length) return null;
  let next: Date | null = null;
  for (const type of ["post", "tweet"] as const) {
    const t = draftTable(type);
    const c = columns(t, track);
    const [row] = await db
      .select({ at: min(sql<Date>`coalesce(${c.dueAt}, ${t.publishedAt} + ${`${windows[0].ms} milliseconds`}::interval)`) })
      .from(t)
      .where(waiting(t, track));
    const at = row?.at ? new Date(row.at) : null;
    if (at && (!next || at < next)) next = at;
  }
  return next;
}
