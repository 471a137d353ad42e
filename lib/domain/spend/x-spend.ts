import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { publishingAccounts, xSpend } from "@/drizzle/schema";
import { dollars, MICROS, type XPrices } from "@/lib/domain/networks/x/pricing";
import type { PublishingAccount } from "../accounts/accounts";

// What this service estimates X charges, per X account and calendar month (UTC), and the
// owner's cap on it (docs/decisions.md, "X's prices, estimated and capped"). X bills the
// developer account; only this service's own requests are counted, at the prices of
// lib/domain/networks/x/pricing.ts (X_PRICES).

export type SpendRow = { userId: string; accountId: string; kind: "post" | "read"; draftType?: "post" | "tweet"; draftId?: string; micros: number };

/** The first instant of `now`'s calendar month (UTC), and of the next one. */
export const monthOf = (now: Date) => ({
  start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
  next: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
});

/** Whether an account posts to X (its connection is X's). */
export const onX = (a: Pick<PublishingAccount, "provider"> | null | undefined): a is PublishingAccount => a?.provider === "twitter";

/**
 * What X charges to read one of this account's posts: an owned read when the account owns
 * the developer app (X_APP_OWNER_ID; x-metrics.ts reads it so), else a post read.
 */
export const xReadPrice = (a: PublishingAccount | null, c: { xPrices: XPrices; X_APP_OWNER_ID?: string }) =>
  a && a.externalId === c.X_APP_OWNER_ID ? c.xPrices.ownedRead : c.xPrices.postRead;

/** This month's estimate of each account, in micro-dollars (0 for one with none). */
export async function spentThisMonth(db: Db, accountIds: string[], now: Date): Promise<Map<string, number>> {
  const out = new Map(accountIds.map((id) => [id, 0]));
  if (!accountIds.length) return out;
  const rows = await db
    .select({ accountId: xSpend.accountId, micros: sql<number>`sum(${xSpend.micros})::float8` })
    .from(xSpend)
    .where(and(inArray(xSpend.accountId, accountIds), gte(xSpend.at, monthOf(now).start)))
    .groupBy(xSpend.accountId);
  for (const r of rows) out.set(r.accountId, Number(r.micros));
  return out;
}

/**
 * Records what was sent. Written beside the action, never inside it: a record that cannot be
 * written must not turn a post that went out into an error (it is logged).
 */
export async function noteSpend(db: Db, rows: SpendRow[], now: Date): Promise<void> {
  const kept = rows.filter((r) => r.micros > 0);
  if (!kept.length) return;
  try {
    await db.insert(xSpend).values(kept.map((r) => ({ ...r, draftType: r.draftType ?? null, draftId: r.draftId ?? null, at: now })));
  } catch (e) {
    log("warn", "the estimate of X's charge was not stored", errorFacts(e));
  }
}

/** The account's cap and this month's estimate: what is left, or null without a cap. */
export async function capLeft(db: Db, a: PublishingAccount, now: Date): Promise<{ cap: number; spent: number; left: number } | null> {
  if (a.monthlyCapMicros === null) return null;
  const spent = (await spentThisMonth(db, [a.id], now)).get(a.id) ?? 0;
  return { cap: a.monthlyCapMicros, spent, left: a.monthlyCapMicros - spent };
}

/**
 * An X account's month as shown before a publish (preview_publish, the approval page): what
 * is spent so far, its cap and what is left (null without one), and the month once `micros`
 * more went out. In micro-dollars.
 */
export async function monthBefore(db: Db, a: PublishingAccount, micros: number, now: Date) {
  const c = await capLeft(db, a, now);
  const spent = c?.spent ?? (await spentThisMonth(db, [a.id], now)).get(a.id) ?? 0;
  return { month: monthOf(now).start.toISOString().slice(0, 7), spent, cap: c?.cap ?? null, left: c?.left ?? null, after: spent + micros };
}

const named = (a: PublishingAccount) => (a.handle ? `@${a.handle.replace(/^@/, "")}` : (a.name ?? "this X account"));

/**
 * Why a request costing `micros` may not go out under the account's cap, or null. Metrics
 * reads stop first: they may not take the last tenth of the cap, which is kept for posts.
 */
export async function capProblem(db: Db, a: PublishingAccount, micros: number, what: "post" | "read", now: Date): Promise<string | null> {
  const c = await capLeft(db, a, now);
  if (!c) return null;
  const reserve = what === "read" ? Math.ceil(c.cap / 10) : 0;
  if (c.spent + micros <= c.cap - reserve) return null;
  const resets = monthOf(now).next.toISOString().slice(0, 10);
  return (
    `${what === "post" ? "Publishing this" : "Reading engagement"} on X (about ${dollars(micros)}) would pass the monthly cap of ` +
    `${dollars(c.cap)} set for ${named(a)}: about ${dollars(c.spent)} is spent this month` +
    `${reserve ? `, and the last ${dollars(reserve)} is kept for posts` : ""}. Nothing was sent to X. The month resets on ${resets} (UTC)`
  );
}

/**
 * How many of `wanted` reads at `price` each fit under the account's cap (metrics reads stop
 * first: they leave the last tenth of the cap to posts), and why the rest do not.
 */
export async function readsUnderCap(db: Db, a: PublishingAccount, wanted: number, price: number, now: Date): Promise<{ n: number; why: string | null }> {
  const c = await capLeft(db, a, now);
  if (!c || price <= 0) return { n: wanted, why: null };
  const n = Math.max(0, Math.min(wanted, Math.floor((c.left - Math.ceil(c.cap / 10)) / price)));
  return { n, why: n < wanted ? await capProblem(db, a, price * (wanted - n), "read", now) : null };
}

/** The owner's publishing account `id`, of any network (null: none of theirs). */
export async function ownAccount(db: Db, userId: string, id: string): Promise<PublishingAccount | null> {
  const [a] = await db
    .select()
    .from(publishingAccounts)
    .where(and(eq(publishingAccounts.id, id), eq(publishingAccounts.userId, userId)));
  return a ?? null;
}

/** Sets or removes (null) an X account's monthly cap, in micro-dollars. */
export async function setMonthlyCap(db: Db, userId: string, accountId: string, micros: number | null) {
  await db
    .update(publishingAccounts)
    .set({ monthlyCapMicros: micros })
    .where(and(eq(publishingAccounts.id, accountId), eq(publishingAccounts.userId, userId)));
}

/** Each X account of the owner: this calendar month's estimate (UTC) and its cap, in micro-dollars, by account id. */
export async function xMonths(db: Db, userId: string, now: Date): Promise<Map<string, { account: PublishingAccount; spent: number; cap: number | null }>> {
  const accounts = (await db.select().from(publishingAccounts).where(eq(publishingAccounts.userId, userId))).filter(onX);
  const spent = await spentThisMonth(
    db,
    accounts.map((a) => a.id),
    now,
  );
  return new Map(accounts.map((a) => [a.id, { account: a, spent: spent.get(a.id) ?? 0, cap: a.monthlyCapMicros }]));
}

/** Each X account's estimate for this calendar month and its cap, as analytics shows them (in dollars, no ids). */
export async function monthOnX(db: Db, userId: string, now: Date) {
  const usd = (m: number) => Math.round(m) / MICROS;
  return [...(await xMonths(db, userId, now)).values()].map((x) => ({
    account: named(x.account),
    month: monthOf(now).start.toISOString().slice(0, 7),
    estimate_usd: usd(x.spent),
    cap_usd: x.cap === null ? null : usd(x.cap),
  }));
}
