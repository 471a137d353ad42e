import { and, eq, lt, sql } from "drizzle-orm";
import { AppError, invalid } from "@/lib/core/errors";
import { idempotencyKeys } from "@/drizzle/schema";
import type { Ctx } from "./context";
import { setTimeout as delay } from "node:timers/promises";
import { sha256 } from "./hash";

const KEY_TTL = "24 hours";
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string) {
  if (!KEY_SHAPE.test(key)) {
    throw invalid(
      [{ path: "Idempotency-Key", message: "Must be 1 to 255 visible ASCII characters (a UUID is a good choice)" }],
      "The Idempotency-Key header is malformed.",
    );
  }
}

/** How often a submission waiting for the same key's first one looks for its answer. */
const WAIT_STEP_MS = 100;

export type IdempotencyOptions = {
  /**
   * While the first request with this key is still running, wait up to this long for its
   * answer instead of refusing (the owner's forms: a second press of the same button must
   * answer as the first did). Zero: refuse at once, as the API does.
   */
  waitMs?: number;
};

/**
 * Runs a non-read-only operation at most once per (user, app, Idempotency-Key) for 24 hours: the
 * same key with the same body replays the first response; with another body it is refused.
 * Only successes are recorded, so a refused or failed call can be retried with its key.
 */
export async function withIdempotency<T>(
  ctx: Ctx,
  clientKey: string,
  operation: string,
  input: unknown,
  run: () => Promise<T>,
  opts: IdempotencyOptions = {},
): Promise<T> {
  const requestHash = sha256({ operation, input });
  const userId = ctx.caller.userId;
  // Per app as well as per user: another app of the same user sending the same key (some
  // derive keys from the request) must neither replay this app's response, which may hold a
  // secret shown once, nor learn that the key was used.
  const key = `${ctx.caller.appId}:${clientKey}`;
  const where = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  const until = Date.now() + (opts.waitMs ?? 0);
  for (;;) {
    const claimed = await ctx.db
      .insert(idempotencyKeys)
      .values({ userId, key, operation, requestHash })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        set: { operation, requestHash, response: null, createdAt: sql`now()` },
        // An expired record is taken over as if it were new.
        setWhere: lt(idempotencyKeys.createdAt, sql`now() - interval '${sql.raw(KEY_TTL)}'`),
      })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) break;
    const [prior] = await ctx.db.select().from(idempotencyKeys).where(where);
    // Gone meanwhile: the first request failed and freed its key; this one runs in its place.
    if (!prior) continue;
    if (prior.requestHash !== requestHash) {
      throw new AppError(
        "action_failed",
        "This Idempotency-Key was already used with a different request.",
        "Use a new Idempotency-Key for a different request.",
      );
    }
    if (prior.response != null) return prior.response as T;
    if (Date.now() >= until) {
      throw new AppError(
        "action_failed",
        "A request with this Idempotency-Key is still being processed.",
        "Wait a moment and repeat the same request to get its result.",
      );
    }
    await delay(WAIT_STEP_MS);
  }
  let result: T;
  try {
    result = await run();
  } catch (e) {
    await ctx.db
      .delete(idempotencyKeys)
      .where(where)
      .catch(() => {});
    throw e;
  }
  // The action is done: if recording its answer fails, the key stays "in progress" rather
  // than being freed, so a retry can never run the action a second time.
  await ctx.db
    .update(idempotencyKeys)
    .set({ response: result as object })
    .where(where)
    .catch(() => {});
  return result;
}
