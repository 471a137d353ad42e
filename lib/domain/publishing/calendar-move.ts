import { and, desc, eq, isNull } from "drizzle-orm";
import { readable } from "@/lib/adapters/db/readable";
import { AppError } from "@/lib/core/errors";
import { zonedParts, zonedToUtc } from "@/lib/core/time";
import { networkOfDraft } from "@/lib/domain/networks";
import type { Ctx } from "../context";
import { accountFor } from "../accounts/accounts";
import { confirmedHash, requireConfirmed } from "../drafts/confirmed";
import { draftTable, loadOwn, type DraftType } from "../drafts/drafts";
import { freeSlots, queueOf } from "../queue/queue";
import { scheduleContent } from "./schedule";

// The calendar's drag and drop: the owner moves a scheduled draft to another day, or drops an
// unscheduled one on a day. Both end in schedule_content's own domain function with the owner
// in person as caller, as the item page's Schedule does.

/** When a draft dropped on a day without a time of its own goes out, when its queue has no free slot that day. */
export const DEFAULT_TIME = "09:00";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The owner's drafts that have no time yet (newest first), for the calendar's side list, each
 * with the hash of its content when the owner has seen it as it is (confirmed.ts), else null.
 */
export async function unscheduledDrafts(ctx: Ctx, limit = 30) {
  const out: { type: DraftType; id: string; title: string; updatedAt: Date; shown: string | null; accountId: string | null }[] = [];
  for (const type of ["post", "tweet"] as const) {
    const t = draftTable(type);
    const rows = await ctx.db
      .select(readable(t))
      .from(t)
      .where(and(eq(t.userId, ctx.caller.userId), eq(t.status, "draft"), isNull(t.scheduledFor)))
      .orderBy(desc(t.updatedAt))
      .limit(limit);
    out.push(...rows.map((r) => ({ type, id: r.id, title: r.title, updatedAt: r.updatedAt, shown: confirmedHash(r), accountId: r.accountId })));
  }
  return out.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime()).slice(0, limit);
}

/**
 * The time on `day` (owner's zone) a draft dropped there goes out at: a scheduled one keeps
 * its time of day; an unscheduled one takes its account's first free queue slot that day,
 * else DEFAULT_TIME.
 */
async function timeOnDay(ctx: Ctx, type: DraftType, d: { id: string; status: string; scheduledFor: Date | null; accountId: string | null }, day: string) {
  const tz = ctx.caller.timezone;
  if (d.scheduledFor && d.status === "scheduled") {
    const at = zonedToUtc(day, zonedParts(d.scheduledFor, tz).time, tz);
    // The seconds too: every zone's offset is whole minutes.
    return at && new Date(at.getTime() + (d.scheduledFor.getTime() % 60_000));
  }
  const start = zonedToUtc(day, "00:00", tz);
  const account = await accountFor(ctx.db, ctx.caller.userId, networkOfDraft(type).platform, d.accountId);
  if (start && account) {
    const q = await queueOf(ctx.db, account.id);
    if (!q.paused) {
      const after = new Date(Math.max(start.getTime(), ctx.now().getTime()));
      const [slot] = await freeSlots(ctx.db, ctx.caller.userId, account, { slots: q.slots, tz, after, count: 1 });
      if (slot && zonedParts(slot, tz).date === day) return slot;
    }
  }
  return zonedToUtc(day, DEFAULT_TIME, tz);
}

/**
 * Schedules the owner's draft on `day` (YYYY-MM-DD in their zone), as the calendar's drop does.
 * The calendar shows titles only: the draft must hold content the owner has seen in full, and
 * Ctx.shown (required) must be that content's hash as the calendar had it.
 */
export async function scheduleOnDay(ctx: Ctx, input: { type: DraftType; id: string; day: string }) {
  const tz = ctx.caller.timezone;
  if (!DAY.test(input.day) || !zonedToUtc(input.day, "00:00", tz)) throw new AppError("invalid_request", "Drop it on a day of the calendar.");
  if (input.day < zonedParts(ctx.now(), tz).date) throw new AppError("invalid_request", "That day has passed. Drop it on today or a later day.");
  const d = await loadOwn(ctx.db, ctx, input.type, input.id);
  requireConfirmed(input.type, d);
  const at = await timeOnDay(ctx, input.type, d, input.day);
  if (!at || at.getTime() <= ctx.now().getTime())
    throw new AppError("invalid_request", `${zonedParts(at ?? ctx.now(), tz).time} that day has passed. Drop it on a later day, or choose a time on its page.`);
  const out = await scheduleContent(ctx, { type: input.type, id: d.id, scheduled_for: at.toISOString() });
  return { id: d.id, type: input.type, scheduled_for: out.scheduled_for, rescheduled: out.rescheduled };
}
