import { and, eq, gte, lt } from "drizzle-orm";
import type { Ctx } from "../context";
import { draftTable, type DraftType } from "../drafts/drafts";
import { confirmedDrafts } from "../drafts/confirmed";
import { listScheduled } from "./list-scheduled";

/**
 * `accountId`: the account it goes (or went) to; null: the network's default. `confirmed`: the
 * hash of its content when the owner has seen all of it as it is now (a drop may move only
 * that, drafts/confirmed.ts); null otherwise, and for what can no longer move.
 */
export type CalendarItem = { id: string; type: DraftType; title: string; status: string; at: Date; accountId: string | null; confirmed: string | null };

/** What the calendar lets the owner drag to another day. */
export const movable = (status: string) => status === "scheduled" || status === "failed";

const MAX_ITEMS = 2000; // a month of a busy account, many times over

/**
 * What the calendar shows in [from, to): every draft given a time in it, whatever became of
 * it (list_scheduled: missed and failed ones stay visible), at that time; and every draft
 * published in it, at the time it went out (publish_now has no scheduled time).
 */
export async function calendarItems(ctx: Ctx, from: Date, to: Date): Promise<CalendarItem[]> {
  const out: CalendarItem[] = [];
  let cursor: string | undefined;
  do {
    const page = await listScheduled(ctx, { from: from.toISOString(), to: to.toISOString(), limit: 100, cursor });
    for (const i of page.items)
      if (i.status !== "published")
        out.push({ id: i.id, type: i.type, title: i.title, status: i.status, at: new Date(i.scheduled_for), accountId: i.account_id, confirmed: null });
    cursor = page.next_cursor ?? undefined;
  } while (cursor && out.length < MAX_ITEMS);
  for (const type of ["post", "tweet"] as const) {
    const t = draftTable(type);
    const rows = await ctx.db
      .select({ id: t.id, title: t.title, status: t.status, at: t.publishedAt, accountId: t.accountId })
      .from(t)
      .where(and(eq(t.userId, ctx.caller.userId), eq(t.status, "published"), gte(t.publishedAt, from), lt(t.publishedAt, to)))
      .limit(MAX_ITEMS);
    out.push(...rows.map((r) => ({ ...r, type, at: r.at!, confirmed: null })));
  }
  for (const type of ["post", "tweet"] as const) {
    const confirmed = await confirmedDrafts(
      ctx.db,
      ctx.caller.userId,
      type,
      out.filter((i) => i.type === type && movable(i.status)).map((i) => i.id),
    );
    for (const i of out) if (i.type === type) i.confirmed = confirmed.get(i.id) ?? null;
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime());
}
