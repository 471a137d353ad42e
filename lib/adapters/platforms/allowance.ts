import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { authAccounts } from "@/drizzle/schema";
import type { Account } from "./tokens";
import type { Answer } from "./request";

// X caps posts per user over 24 hours and says how many remain on each answer to a post
// (x-user-limit-24hour-limit / -remaining / -reset, epoch seconds); POST /2/tweets also has a
// window of its own, 100 a user every 15 minutes (x-rate-limit-limit / -remaining / -reset;
// docs.x.com, "Rate limits"). Account health shows the first; preview_publish both.

export type PostAllowance = NonNullable<Account["postAllowance"]>;

type PostWindow = NonNullable<PostAllowance["short"]>;

/** A window as the answer's `{prefix}-limit`, `-remaining` and `-reset` headers state it, or null. */
function windowOf(res: Answer, prefix: string): PostWindow | null {
  const remaining = Number(res.headers.get(`${prefix}-remaining`) ?? NaN);
  const reset = Number(res.headers.get(`${prefix}-reset`) ?? NaN);
  if (!Number.isInteger(remaining) || !Number.isFinite(reset) || reset <= 0) return null;
  const limit = Number(res.headers.get(`${prefix}-limit`) ?? NaN);
  return { limit: Number.isInteger(limit) ? limit : null, remaining, resetsAt: new Date(reset * 1000).toISOString() };
}

/** X's 24-hour allowance as an answer to a post states it, with the 15-minute window when stated; null when it states none. */
export function allowanceOf(res: Answer): PostAllowance | null {
  const day = windowOf(res, "x-user-limit-24hour");
  if (!day) return null;
  const short = windowOf(res, "x-rate-limit");
  return short ? { ...day, short } : day;
}

/** Whether what is stored of a window still says what the answer does, near enough (or both say nothing). */
const near = (known: PostWindow | undefined, now: PostWindow | undefined) =>
  known === now || (!!known && !!now && known.resetsAt === now.resetsAt && Math.abs(known.remaining - now.remaining) < 5 && now.remaining > 10);

/**
 * Keeps what the answer says of the allowance on the connection (when it says anything). A
 * backlog of posts writes it now and then rather than after each one: within a few posts of
 * what is stored it is left, unless few remain.
 */
export async function notePostAllowance(db: Db, acc: Account, res: Answer) {
  const a = allowanceOf(res);
  if (!a) return;
  const known = acc.postAllowance;
  if (known && near(known, a) && near(known.short, a.short)) return;
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
