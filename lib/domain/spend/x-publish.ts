import type { Db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "../context";
import { postPrice, type XPrices } from "@/lib/domain/networks/x/pricing";
import { accountFor, type PublishingAccount } from "../accounts/accounts";
import type { Claimed, PublishPorts } from "../publishing/outcomes";
import { capProblem, noteSpend, onX } from "./x-spend";

// Publishing's side of X's prices: before the call, the cap; after it, what went out is
// recorded at its price (each part posted is a request X charges for).

/** A tweet draft on its way to an X account (not Bluesky, not the sandbox): what it costs. */
export type XCharge = { account: PublishingAccount; prices: XPrices; texts: string[]; before: number };

/** What of a draft its price depends on (a claimed row, or a loaded one before its claim). */
type Chargeable = Pick<Claimed, "type" | "userId" | "accountId" | "body" | "publishProgress"> & { thread?: { text: string }[] };

export async function xChargeOf(db: Db, c: Chargeable, w: PublishPorts): Promise<XCharge | null> {
  if (c.type !== "tweet" || !w.platforms.configured("x")) return null;
  const account = await accountFor(db, c.userId, "micro", c.accountId).catch(() => null);
  if (!onX(account)) return null;
  const texts = [c.body, ...(c.thread ?? []).map((p) => p.text)];
  return { account, prices: w.config().xPrices, texts, before: c.publishProgress?.parts.length ?? 0 };
}

/** The price of the parts from `from` on, in micro-dollars. */
const priceFrom = (x: XCharge, from: number) => x.texts.slice(from).reduce((s, t) => s + postPrice(t, x.prices).micros, 0);

/** Why the parts still to post may not go out under the account's monthly cap, or null. */
export const capRefusal = (db: Db, x: XCharge, now: Date) => capProblem(db, x.account, priceFrom(x, x.before), "post", now);

/**
 * Records the parts this attempt posted (`after`: how many are out now) at their price, and
 * returns that estimate (0 when nothing went out).
 */
export async function notePosted(db: Db, c: Pick<Claimed, "userId" | "id">, x: XCharge, after: number, now: Date): Promise<number> {
  const micros = priceFrom(x, x.before) - priceFrom(x, after);
  await noteSpend(db, [{ userId: c.userId, accountId: x.account.id, kind: "post", draftType: "tweet", draftId: c.id, micros }], now);
  return micros;
}

/**
 * publish_now, before the claim and the approval: a tweet that would pass its X account's
 * monthly cap is refused (action_failed), the draft left as it was.
 */
export async function requireUnderCap(ctx: Ctx, tx: Db, d: Chargeable): Promise<void> {
  const x = await xChargeOf(tx, d, ctx.ports);
  const refused = x && (await capRefusal(tx, x, ctx.now()));
  if (refused)
    throw new AppError(
      "action_failed",
      `${refused}.`,
      "The owner can raise or remove the cap in Settings > Connections (Monthly cap on X), or publish it after the month resets.",
    );
}

/**
 * A first comment to X is a post like any other: refused (the reason) when it would pass the
 * account's monthly cap, else null; `posted` records it at its price.
 */
export async function commentCharge(db: Db, r: { userId: string; accountId: string | null; id: string; text: string }, w: PublishPorts) {
  const x = await xChargeOf(db, { type: "tweet", userId: r.userId, accountId: r.accountId, body: r.text, publishProgress: null }, w);
  return {
    refused: x ? await capRefusal(db, x, w.clock()) : null,
    posted: async () => void (x && (await notePosted(db, { userId: r.userId, id: r.id }, x, 1, w.clock()))),
  };
}
