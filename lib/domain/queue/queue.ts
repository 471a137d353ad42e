import { and, eq, gte, inArray, ne } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { isoInZone, zonedParts, zonedToUtc } from "@/lib/core/time";
import { postingQueues, publishingAccounts, type QueueSlot, type Weekday } from "@/drizzle/schema";
import { network, networkFor, networkOfDraft, platformNames, type DraftType } from "@/lib/domain/networks";
import type { Ctx } from "../context";
import { accountFor, goingTo, ownAccount, type PublishingAccount } from "../accounts/accounts";
import { draftTable } from "../drafts/drafts";

// An account's posting queue: weekly slots on the owner's wall clock, filled in order by
// schedule_content with slot "next", one draft a slot. A slot keeps its local time across a
// daylight-saving change (09:00 stays 09:00). In the hour the clocks skip, a slot moves on by
// the gap (02:30 becomes 03:30, and is one slot with a 03:30 one); in the hour they repeat, it
// is the second 02:30 (after the clocks went back).

export const WEEKDAYS: Weekday[] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
/** How far ahead free slots are looked for: a queue full for longer is full. */
const HORIZON_DAYS = 366;

export type QueueView = { account_id: string; timezone: string; slots: QueueSlot[]; paused: boolean; next_slots: string[] };

/** Slots in the order a week runs (Monday first), each once. */
function normal(slots: QueueSlot[]): QueueSlot[] {
  const order = (s: QueueSlot) => ((WEEKDAYS.indexOf(s.weekday) + 6) % 7) * 1440 + Number(s.time.slice(0, 2)) * 60 + Number(s.time.slice(3));
  const seen = new Set<string>();
  return [...slots].sort((a, b) => order(a) - order(b)).filter((s) => !seen.has(`${s.weekday} ${s.time}`) && seen.add(`${s.weekday} ${s.time}`));
}

/** When the account's drafts (but `exclude`) are already scheduled (each takes its slot), from `from` on. */
async function taken(db: Db, userId: string, account: PublishingAccount, from: Date, exclude?: string): Promise<Set<number>> {
  const t = draftTable(network(account.platform).draftType);
  const mine = goingTo(t, account);
  const rows = await db
    .select({ at: t.scheduledFor })
    .from(t)
    .where(and(eq(t.userId, userId), inArray(t.status, ["scheduled", "publishing"]), gte(t.scheduledFor, from), mine, exclude ? ne(t.id, exclude) : undefined));
  return new Set(rows.map((r) => r.at!.getTime()));
}

/** The slot times after `after` (each once), in order, within a year; the caller stops when it has enough. */
function* slotTimes(slots: QueueSlot[], tz: string, after: Date): Generator<Date> {
  const seen = new Set<number>();
  const start = zonedParts(after, tz).date;
  for (let day = 0; day < HORIZON_DAYS; day++) {
    const date = new Date(Date.parse(`${start}T12:00:00Z`) + day * 86400_000).toISOString().slice(0, 10);
    const weekday = WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()];
    for (const s of slots.filter((x) => x.weekday === weekday)) {
      const at = zonedToUtc(date, s.time, tz)!;
      if (at.getTime() <= after.getTime() || seen.has(at.getTime())) continue;
      seen.add(at.getTime());
      yield at;
    }
  }
}

/** The next `count` free slot times after `after`, in order (fewer when the queue has none within a year). */
export async function freeSlots(
  db: Db,
  userId: string,
  account: PublishingAccount,
  q: { slots: QueueSlot[]; tz: string; after: Date; count: number; exclude?: string },
) {
  const { slots, tz, after, count } = q;
  if (!slots.length || !count) return [];
  const busy = await taken(db, userId, account, after, q.exclude);
  const out: Date[] = [];
  for (const at of slotTimes(slots, tz, after)) {
    if (busy.has(at.getTime())) continue;
    out.push(at);
    if (out.length === count) break;
  }
  return out;
}

export async function queueOf(db: Db, accountId: string) {
  const [q] = await db.select().from(postingQueues).where(eq(postingQueues.accountId, accountId));
  return q ? { slots: q.slots, paused: q.paused } : { slots: [] as QueueSlot[], paused: false };
}

/**
 * manage_queue: reads an account's queue, or changes its slots and whether it is paused
 * (nothing already scheduled moves). The account must be the caller's.
 */
export async function manageQueue(ctx: Ctx, input: { account_id: string; slots?: QueueSlot[]; paused?: boolean }): Promise<QueueView> {
  const uid = ctx.caller.userId;
  const account = await ownAccount(ctx.db, uid, input.account_id);
  if (input.slots !== undefined || input.paused !== undefined) {
    const set = { ...(input.slots !== undefined && { slots: normal(input.slots) }), ...(input.paused !== undefined && { paused: input.paused }) };
    await ctx.db
      .insert(postingQueues)
      .values({ accountId: account.id, userId: uid, slots: [], paused: false, ...set })
      .onConflictDoUpdate({ target: postingQueues.accountId, set: { ...set, updatedAt: new Date() } });
  }
  const tz = ctx.caller.timezone;
  const q = await queueOf(ctx.db, account.id);
  const next = q.paused ? [] : await freeSlots(ctx.db, uid, account, { slots: q.slots, tz, after: leadFrom(ctx), count: 5 });
  return { account_id: account.id, timezone: tz, slots: q.slots, paused: q.paused, next_slots: next.map((d) => isoInZone(d, tz)) };
}

/** The earliest time a draft may be scheduled for now. */
export const leadFrom = (ctx: Ctx) => new Date(ctx.now().getTime() + ctx.ports.config().SCHEDULE_MIN_LEAD_SECONDS * 1000);

/**
 * schedule_content with slot "next": the first free slot of the queue of the account the
 * draft goes to (`accountId`, else the network's default). A paused queue, or one with no
 * slots, is refused with a hint.
 */
export async function nextSlotFor(ctx: Ctx, db: Db, type: DraftType, accountId: string | null, draftId: string): Promise<Date> {
  const platform = networkOfDraft(type).platform;
  const account = await accountFor(db, ctx.caller.userId, platform, accountId);
  if (!account)
    throw new AppError("action_failed", `No ${platformNames(platform)} account is connected, so it has no queue.`, "Connect one in Settings > Connections.");
  const name = networkFor(platform, account).name;
  const q = await queueOf(db, account.id);
  const hint = `Set its slots with manage_queue (account_id ${account.id}), or give scheduled_for instead.`;
  if (q.paused)
    throw new AppError(
      "action_failed",
      `The posting queue of this ${name} account is paused.`,
      `Resume it with manage_queue (paused: false), or give scheduled_for instead.`,
    );
  if (!q.slots.length) throw new AppError("action_failed", `This ${name} account has no posting slots.`, hint);
  const tz = ctx.caller.timezone;
  // The draft's own slot counts as free: asking again for an already queued draft keeps it there.
  const [at] = await freeSlots(db, ctx.caller.userId, account, { slots: q.slots, tz, after: leadFrom(ctx), count: 1, exclude: draftId });
  if (!at) throw new AppError("action_failed", `The posting queue of this ${name} account has no free slot within a year.`, hint);
  return at;
}

export type UpcomingSlot = { at: Date; draft: { type: DraftType; id: string; title: string } | null };

/**
 * The owner's queue page: an account's queue, its next `count` slots with the draft in each
 * (or none), and the first free slot after its last queued draft ("the end"), in the owner's time zone `tz`.
 */
export async function queueOverview(db: Db, userId: string, tz: string, account: PublishingAccount, now: Date, count: number) {
  const q = await queueOf(db, account.id);
  const type = network(account.platform).draftType;
  const t = draftTable(type);
  const mine = goingTo(t, account);
  const queued = await db
    .select({ id: t.id, title: t.title, at: t.scheduledFor })
    .from(t)
    .where(and(eq(t.userId, userId), eq(t.status, "scheduled"), gte(t.scheduledFor, now), mine));
  const byTime = new Map(queued.map((d) => [d.at!.getTime(), d]));
  const upcoming: UpcomingSlot[] = [];
  for (const at of slotTimes(q.slots, tz, now)) {
    const d = byTime.get(at.getTime());
    upcoming.push({ at, draft: d ? { type, id: d.id, title: d.title } : null });
    if (upcoming.length === count) break;
  }
  const last = upcoming.filter((s) => s.draft).at(-1)?.at ?? now;
  const [end] = await freeSlots(db, userId, account, { slots: q.slots, tz, after: last, count: 1 });
  return { ...q, upcoming, end: end ?? null };
}

/** Every account's free queue slots in [from, to) that are still ahead (the calendar shows them), in time order. */
export async function openSlots(db: Db, userId: string, tz: string, from: Date, to: Date, now: Date) {
  const queues = await db
    .select({ q: postingQueues, a: publishingAccounts })
    .from(postingQueues)
    .innerJoin(publishingAccounts, eq(publishingAccounts.id, postingQueues.accountId))
    .where(and(eq(postingQueues.userId, userId), eq(postingQueues.paused, false)));
  const after = new Date(Math.max(from.getTime(), now.getTime()));
  const out: { at: Date; account: PublishingAccount }[] = [];
  for (const { q, a } of queues) {
    const free = await freeSlots(db, userId, a, { slots: q.slots, tz, after, count: 500 });
    out.push(...free.filter((at) => at < to).map((at) => ({ at, account: a })));
  }
  return out.sort((x, y) => x.at.getTime() - y.at.getTime());
}
