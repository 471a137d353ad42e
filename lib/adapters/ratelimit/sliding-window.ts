import { RateLimiterMemory, type RateLimiterAbstract } from "rate-limiter-flexible";
import { batchCalls, type Shared } from "@/lib/core/batch-calls";

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
  const [current, previous] = await Promise.all([countOne(store, curKey), previousCount(store, userId, index, elapsed)]);
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

// On Redis, a caller's requests that arrive in one turn of the event loop share one increment
// of their counter by as many points as there are requests (lib/core/batch-calls.ts): one round trip
// to Redis for a burst instead of one per request. Each request then reads its own place in
// the increment (the count just after it), in the order it arrived, which is what as many
// separate increments in a row would have answered: the store's atomic increment still
// decides, so concurrent processes can never admit more than the limit. In process there is
// no round trip to save, and the turn's wait would only cost.
function perStore<T>(send: (store: RateLimiterAbstract, key: string, calls: number) => Promise<T>) {
  const shared = new WeakMap<RateLimiterAbstract, (key: string) => Promise<Shared<T>>>();
  return (store: RateLimiterAbstract, key: string) => {
    let forStore = shared.get(store);
    if (!forStore) shared.set(store, (forStore = batchCalls((k, calls) => send(store, k, calls))));
    return forStore(key);
  };
}

const increment = perStore(async (store, key, points) => (await store.consume(key, points)).consumedPoints);

async function countOne(store: RateLimiterAbstract, key: string): Promise<number> {
  if (store instanceof RateLimiterMemory) return (await store.consume(key, 1)).consumedPoints;
  const { value: total, place, calls } = await increment(store, key);
  return total - calls + place;
}

// The previous minute is closed: nothing counts in it any more (a refusal gives its point
// back to the current minute), so its count is read from the store once per caller and
// minute and kept here, and a request takes one round trip to Redis instead of two. Not in
// the minute's first second, while requests stamped in the previous one may still be
// counting: there every request reads it again, and on Redis the requests of one turn share
// that read (sent after all of them began, so as fresh as a read of each one's own; before,
// a busy caller's first second took a read of its own for every request).
const closedMinutes = new WeakMap<RateLimiterAbstract, Map<string, { index: number; count: number }>>();
const MAX_KEPT = 10_000;

const readShared = perStore(async (store, key) => (await store.get(key))?.consumedPoints ?? 0);
const readCount = async (store: RateLimiterAbstract, key: string) =>
  store instanceof RateLimiterMemory ? ((await store.get(key))?.consumedPoints ?? 0) : (await readShared(store, key)).value;

async function previousCount(store: RateLimiterAbstract, userId: string, index: number, elapsed: number): Promise<number> {
  let kept = closedMinutes.get(store);
  if (!kept) closedMinutes.set(store, (kept = new Map()));
  const hit = kept.get(userId);
  if (hit?.index === index - 1) return hit.count;
  const count = await readCount(store, `${userId}:${index - 1}`);
  if (elapsed * WINDOW_SECONDS >= 1) {
    if (kept.size >= MAX_KEPT) kept.clear(); // one entry per caller of the last minute, bounded
    kept.set(userId, { index: index - 1, count });
  }
  return count;
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
