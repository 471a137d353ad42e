import type { RateLimiterAbstract } from "rate-limiter-flexible";

export const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;

export type RateDecision = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the budget is whole again (for the RateLimit header). */
  resetSeconds: number;
  /** Whole seconds to wait before a retry can succeed (only when refused). */
  retryAfter: number;
};

/**
 * A sliding 60-second window (the "sliding window counter" of Cloudflare and Kong) over
 * rate-limiter-flexible's atomic counters: one counter per clock-aligned minute, and the
 * estimate of the last 60 seconds is previous × (share of it still in the window) + current.
 * The increment is atomic in the store, so concurrent requests can never all be admitted;
 * a refused request gives its point back so that waiting Retry-After is enough.
 */
export async function slidingWindow(store: RateLimiterAbstract, userId: string, limit: number, now: number): Promise<RateDecision> {
  const index = Math.floor(now / WINDOW_MS);
  const elapsed = (now - index * WINDOW_MS) / WINDOW_MS; // 0..1 through the current window
  const curKey = `${userId}:${index}`;
  const [cur, prevRes] = await Promise.all([store.consume(curKey, 1), store.get(`${userId}:${index - 1}`)]);
  const current = cur.consumedPoints;
  const previous = prevRes?.consumedPoints ?? 0;
  const estimate = previous * (1 - elapsed) + current;
  const allowed = estimate <= limit;
  if (!allowed) await store.reward(curKey, 1);
  const used = allowed ? estimate : estimate - 1;
  return {
    allowed,
    limit,
    remaining: Math.max(0, Math.floor(limit - used)),
    resetSeconds: Math.max(1, Math.ceil(((1 - elapsed) * WINDOW_MS + (current > 0 ? WINDOW_MS : 0)) / 1000)),
    retryAfter: allowed ? 0 : secondsUntilRoom(previous, current - 1, elapsed, limit),
  };
}

/** Seconds until one more request fits: solves the estimate formula for the wait. */
function secondsUntilRoom(previous: number, current: number, elapsed: number, limit: number): number {
  const need = limit - 1; // the estimate must drop to this before adding one request
  let waitWindows: number;
  if (current <= need && previous > 0) {
    // Still in this window: previous × (1 − elapsed − t) + current <= need.
    waitWindows = Math.max(0, 1 - elapsed - (need - current) / previous);
  } else {
    // Only in the next window: current × (1 − g) <= need, where the next window is g through.
    const g = current > 0 ? Math.max(0, 1 - need / current) : 0;
    waitWindows = 1 - elapsed + g;
  }
  return Math.max(1, Math.ceil(waitWindows * WINDOW_SECONDS));
}
