import { and, asc, eq, gt, gte, lt, or } from "drizzle-orm";
import { invalid } from "@/lib/core/errors";
import { decodeCursor, encodeCursor, timeOf } from "../cursor";
import { platformOf, type PlatformName } from "@/lib/domain/networks/platform";
import type { Ctx } from "../context";
import { draftTable, type DraftType } from "../drafts/drafts";
import { preview } from "../drafts/text";
import { isUuid } from "@/lib/core/ids";
import { LAST_STORABLE_MS } from "@/lib/core/time";

const DAY = 24 * 3600 * 1000;

export type ListScheduledInput = { from?: string; to?: string; platform?: PlatformName; limit: number; cursor?: string };

// Keyset cursor (scheduled_for, id): stable while drafts are scheduled or moved around.
type Key = { at: string; id: string };
const encode = (k: Key) => encodeCursor("scheduled", { a: k.at, i: k.id });
const decode = (cursor: string): Key =>
  decodeCursor(cursor, "scheduled", (c) => (timeOf(c.a) && typeof c.i === "string" && isUuid(c.i) ? { at: c.a as string, id: c.i } : undefined));

/**
 * Drafts whose scheduled time falls in [from, to), in time order. Every draft that was given
 * a time is listed with its current status, so missed, failed and unconfirmed posts show up
 * next to the pending ones.
 */
export async function listScheduled(ctx: Ctx, input: ListScheduledInput) {
  const from = input.from ? new Date(input.from) : ctx.now();
  // The default 30 days end no later than the last instant PostgreSQL holds (year 9999).
  const to = input.to ? new Date(input.to) : new Date(Math.min(from.getTime() + 30 * DAY, LAST_STORABLE_MS));
  if (to.getTime() <= from.getTime()) throw invalid([{ path: "to", message: "Must be after from" }]);
  if (to.getTime() - from.getTime() > 366 * DAY) throw invalid([{ path: "to", message: "The range is at most 366 days" }]);
  const after = input.cursor ? decode(input.cursor) : null;
  const types: DraftType[] = (["post", "tweet"] as const).filter((t) => !input.platform || platformOf(t) === input.platform);
  const rows = [];
  for (const type of types) {
    const t = draftTable(type);
    const afterKey = after ? or(gt(t.scheduledFor, new Date(after.at)), and(eq(t.scheduledFor, new Date(after.at)), gt(t.id, after.id))) : undefined;
    const found = await ctx.db
      .select({ id: t.id, title: t.title, body: t.body, status: t.status, scheduledFor: t.scheduledFor, accountId: t.accountId })
      .from(t)
      .where(and(eq(t.userId, ctx.caller.userId), gte(t.scheduledFor, from), lt(t.scheduledFor, to), afterKey))
      .orderBy(asc(t.scheduledFor), asc(t.id))
      .limit(input.limit + 1);
    rows.push(...found.map((r) => ({ ...r, type, at: r.scheduledFor! })));
  }
  rows.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    items: page.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
      preview: preview(r.body),
      platform: platformOf(r.type),
      account_id: r.accountId,
      scheduled_for: r.at.toISOString(),
      status: r.status,
    })),
    next_cursor: rows.length > input.limit ? encode({ at: last.at.toISOString(), id: last.id }) : null,
  };
}
