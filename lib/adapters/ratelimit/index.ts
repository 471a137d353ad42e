import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { Redis } from "ioredis";
import { config } from "@/lib/core/config";
import type { Plan } from "@/drizzle/schema";
import { addressKey } from "./address-key";
import { slidingWindow, WINDOW_SECONDS, type RateDecision } from "./sliding-window";

export type { RateDecision };

// Requests per minute by plan (docs/interface.md, Plans and limits); RATE_LIMIT_SCALE multiplies them.
const PER_MINUTE: Record<Plan, number> = { none: 30, plus: 30, premium: 60, creator: 60 };

export function limitFor(plan: Plan): number {
  return Math.max(1, Math.floor(PER_MINUTE[plan] * config().RATE_LIMIT_SCALE));
}

// The counters live for two windows so the previous window's count can still be read.
const STORE_OPTS = { keyPrefix: "rl:req", points: Number.MAX_SAFE_INTEGER, duration: WINDOW_SECONDS * 2 };

let store: RateLimiterAbstract | undefined;
// A fresh Redis client is not ready for a few milliseconds. Answering from the insurance
// memory meanwhile would count those requests apart from Redis and admit more than the
// limit (a burst at start-up), so the first requests wait for the first contact (at most 1 s).
let firstContact: Promise<unknown> = Promise.resolve();

/**
 * The store behind the per-user budget: Redis when REDIS_URL is set, with an in-process
 * insurance limiter that takes over while Redis is unreachable (neither failing requests nor
 * letting everything through); otherwise in process.
 */
function counterStore(): RateLimiterAbstract {
  if (store) return store;
  const memory = new RateLimiterMemory(STORE_OPTS);
  const url = config().REDIS_URL;
  if (!url) return (store = memory);
  // The offline queue is off so that an outage fails fast into the insurance limiter.
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    commandTimeout: 500,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  client.on("error", () => {}); // reconnection is automatic; the insurance limiter covers the gap
  firstContact = new Promise((resolve) => {
    client.once("ready", resolve).once("error", resolve);
    setTimeout(resolve, 1000).unref();
  });
  return (store = new RateLimiterRedis({
    ...STORE_OPTS,
    storeClient: client,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  }));
}

/** One budget per user, shared by every surface; charged only through lib/operations/budget.ts. */
export async function consumeRequest(userId: string, plan: Plan, now = Date.now()): Promise<RateDecision> {
  const s = counterStore();
  await firstContact;
  return slidingWindow(s, userId, limitFor(plan), now);
}

/** OAuth requests (register, token, revoke, metadata fetches: each its own budget) per client address (an IPv6 /64): fixed, never scaled. */
export const OAUTH_PER_MINUTE = 30;

export async function consumeOAuthRequest(endpoint: string, address: string, now = Date.now()): Promise<RateDecision> {
  const s = counterStore();
  await firstContact;
  return slidingWindow(s, `oauth:${endpoint}:${addressKey(address)}`, OAUTH_PER_MINUTE, now);
}

/** Tests switch between stores by changing REDIS_URL. */
export function resetRateLimiter() {
  store = undefined;
}
