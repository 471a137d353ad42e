import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { authAccounts } from "@/drizzle/schema";
import type { Account } from "./tokens";
import type { Answer } from "./request";

// X caps posts per user over 24 hours and says how many remain on each answer to a post
// (x-user-limit-24hour-limit / -remaining / -reset, epoch seconds). Account health shows it.

export type PostAllowance = NonNullable<Account["postAllowance"]>;

/** X's 24-hour allowance as an answer states it, or null when it does not. */
export function allowanceOf(res: Answer): PostAllowance | null {
  const remaining = Number(res.headers.get("x-user-limit-24hour-remaining") ?? NaN);
  const reset = Number(res.headers.get("x-user-limit-24hour-reset") ?? NaN);
  if (!Number.isInteger(remaining) || !Number.isFinite(reset) || reset <= 0) return null;
  const limit = Number(res.headers.get("x-user-limit-24hour-limit") ?? NaN);
  return { limit: Number.isInteger(limit) ? limit : null, remaining, resetsAt: new Date(reset * 1000).toISOString() };
}

/**
 * Keeps what the answer says of the allowance on the connection (when it says anything). A
 * backlog of posts writes it now and then rather than after each one: within a few posts of
 * what is stored it is left, unless few remain.
 */
export async function notePostAllowance(db: Db, acc: Account, res: Answer) {
  const a = allowanceOf(res);
  if (!a) return;
  const known = acc.postAllowance;
  if (known && known.resetsAt === a.resetsAt && Math.abs(known.remaining - a.remaining) < 5 && a.remaining > 10) return;
  // Said after a post went out: a failure to keep it must not turn that post into an error.
  try {
    await db
      .update(authAccounts)
      .set({ postAllowance: a })
      .where(and(eq(authAccounts.provider, acc.provider), eq(authAccounts.providerAccountId, acc.providerAccountId)));
    acc.postAllowance = a;
  } catch (e) {
    log("warn", "the network's daily allowance was not stored", errorFacts(e));
  }
}
