import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";

// A claim (a draft's `publishing`, a first comment's `posting`) carries the time it was last
// renewed, and the stuck sweep takes only claims not renewed for PUBLISH_STUCK_SECONDS. That
// time is also the claim's token: a renewal is one conditional UPDATE matching the status AND
// the time this process last wrote, so it fails once the sweep (or anyone after it) has
// taken the claim. A platform call goes out only while its claim is surely this process's:
// made or renewed less than a quarter of the limit ago (no sweep can have taken it yet, and
// a scheduler's thousands of fresh claims cost no statement each), else right after a
// renewal matched. While a call is under way its claim is renewed every third of the limit:
// the sweep never takes the claim of a live process, and a process never calls for a claim
// the sweep took.

/** Thrown to stop a publish part way: the claim was taken (the stuck sweep), nothing more may be sent for it. */
export class ClaimLost extends Error {
  constructor() {
    super("the claim was taken by the stuck sweep");
  }
}

/** `column` holds exactly `token` (null included), as the claim's own last write left it. */
export const sameClaim = (column: PgColumn, token: Date | null): SQL => sql`${column} is not distinct from ${token?.toISOString() ?? null}::timestamptz`;

/**
 * One claim held by this process. `renewOnce(now, also)` is the conditional UPDATE, writing
 * `also` with it (true: it matched, and the claim's token is now `now`); `token()` is the
 * claim's time as this process last wrote it. Renewals run one after another, so each is
 * made with the token the one before wrote.
 */
export class Hold<Also = never> {
  private chain: Promise<unknown> = Promise.resolve();
  private lost = false;

  constructor(
    private readonly renewOnce: (now: Date, also?: Also) => Promise<boolean>,
    private readonly token: () => Date | null,
    private readonly clock: () => Date,
    private readonly stuckSeconds: number,
  ) {}

  /** Confirms the claim is still this one and renews it; false once it was taken (then always false). */
  renew(also?: Also): Promise<boolean> {
    const next = this.chain.then(async () => {
      if (!this.lost && !(await this.renewOnce(this.clock(), also))) this.lost = true;
      return !this.lost;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Made or renewed by this process less than a quarter of the stuck limit ago. */
  private young(): boolean {
    const at = this.token();
    return !this.lost && !!at && this.clock().getTime() - at.getTime() < this.stuckSeconds * 250;
  }

  /** Right before a call: true while the claim is surely still this one (see above), renewing it when that is not certain. */
  confirm(): Promise<boolean> {
    return this.young() ? Promise.resolve(true) : this.renew();
  }

  /**
   * Runs `calls` while renewing the claim every third of the stuck limit, and leaves it young
   * for the outcome's write (the scheduler writes outcomes in batches, up to a second later).
   */
  async during<T>(calls: () => Promise<T>): Promise<T> {
    // A renewal that fails to reach the database is tried again at the next tick.
    const renew = () => void this.renew().catch((e) => log("warn", "claim not renewed", errorFacts(e)));
    const timer = setInterval(renew, Math.max(100, (this.stuckSeconds * 1000) / 3));
    timer.unref();
    try {
      return await calls();
    } finally {
      clearInterval(timer);
      if (!this.young()) renew();
      await this.chain; // the caller records with the last token written
    }
  }
}
