import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible";
import { Redis } from "ioredis";
import { config } from "@/lib/config";

// Password guessing: failed sign-ins are counted per account (5 in 15 minutes) and per
// client address (20 in 15 minutes, for one address trying many accounts). Past either, the
// password is not even checked, right or wrong, until the window ends. A successful sign-in
// counts for nothing and clears the account's count.
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const FAILURES_PER_ACCOUNT = 5;
export const FAILURES_PER_ADDRESS = 20;

type Limiters = { account: RateLimiterAbstract; address: RateLimiterAbstract };
let limiters: Limiters | undefined;

function make(keyPrefix: string, points: number, client?: Redis): RateLimiterAbstract {
  const opts = { keyPrefix, points, duration: SIGN_IN_WINDOW_SECONDS };
  const memory = new RateLimiterMemory(opts);
  // With Redis the counts hold across processes; its outage falls back to this process's memory.
  return client ? new RateLimiterRedis({ ...opts, storeClient: client, rejectIfRedisNotReady: true, insuranceLimiter: memory }) : memory;
}

function store(): Limiters {
  if (limiters) return limiters;
  const url = config().REDIS_URL;
  let client: Redis | undefined;
  if (url) {
    client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 500 });
    client.on("error", () => {}); // reconnects by itself; the memory limiter covers the gap
  }
  return (limiters = {
    account: make("rl:signin:account", FAILURES_PER_ACCOUNT, client),
    address: make("rl:signin:address", FAILURES_PER_ADDRESS, client),
  });
}

const accountKey = (email: string) => email.trim().toLowerCase();

// Redis outages are covered by the memory limiter; a read that still fails counts as none,
// so that the owner's sign-in never depends on the counter store.
async function used(l: RateLimiterAbstract, key: string): Promise<number> {
  const res = await l.get(key).catch(() => null);
  return res?.consumedPoints ?? 0;
}

/** Whether password sign-in is closed for this account or this address right now. */
export async function signInThrottled(email: string, address: string): Promise<boolean> {
  const { account, address: byAddress } = store();
  const [a, b] = await Promise.all([used(account, accountKey(email)), used(byAddress, address)]);
  return a >= FAILURES_PER_ACCOUNT || b >= FAILURES_PER_ADDRESS;
}

export async function recordSignInFailure(email: string, address: string): Promise<void> {
  const { account, address: byAddress } = store();
  await Promise.all([account.penalty(accountKey(email), 1), byAddress.penalty(address, 1)]);
}

export async function clearSignInFailures(email: string): Promise<void> {
  await store().account.delete(accountKey(email));
}

/** Tests switch between stores by changing REDIS_URL. */
export function resetSignInLimiter() {
  limiters = undefined;
}
