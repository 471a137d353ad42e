import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { Redis } from "ioredis";
import { config } from "@/lib/core/config";
import { addressKey } from "./address-key";

// Password guessing: sign-in attempts are counted per account (5 in 15 minutes) and per
// client address (an IPv6 /64: address-key.ts; 20 in 15 minutes, for one address trying many
// accounts). Past either, the password is not even checked, right or wrong, until the window
// ends. A successful sign-in gives its attempt back and clears the account's count. A browser
// that proves it signed in to the account before (lib/transports/auth/password-sign-in.ts) counts against
// a budget of its own (5 in 15 minutes) instead of the account's, so that strangers' guesses,
// which close the account to everyone else, cannot lock its owner out.
//
// Connecting a network account with an app password (Bluesky) passes the password on to the
// account's server: an owner's attempts are counted too (10 in 15 minutes, a success given
// back), so that the form cannot be used to guess an app password or to make this service
// call a server over and over.
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const FAILURES_PER_ACCOUNT = 5;
export const FAILURES_PER_ADDRESS = 20;
export const CONNECTS_PER_OWNER = 10;

type Limiters = {
  account: RateLimiterAbstract;
  device: RateLimiterAbstract;
  address: RateLimiterAbstract;
  connect: RateLimiterAbstract;
  ready: Promise<unknown>;
};
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
  let ready: Promise<unknown> = Promise.resolve();
  if (url) {
    client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, commandTimeout: 500 });
    client.on("error", () => {}); // reconnects by itself; the memory limiter covers the gap
    // Counting in memory while a fresh client connects would split the counts: wait for the
    // first contact (at most 1 s), as the request limiter does.
    ready = new Promise((resolve) => {
      client!.once("ready", resolve).once("error", resolve);
      setTimeout(resolve, 1000).unref();
    });
  }
  return (limiters = {
    account: make("rl:signin:account", FAILURES_PER_ACCOUNT, client),
    device: make("rl:signin:device", FAILURES_PER_ACCOUNT, client),
    address: make("rl:signin:address", FAILURES_PER_ADDRESS, client),
    connect: make("rl:connect:owner", CONNECTS_PER_OWNER, client),
    ready,
  });
}

export const accountKey = (email: string) => email.trim().toLowerCase();

/**
 * Takes one attempt from the account's (or the proven browser's, `device`) and the address's
 * budgets before the password is checked (atomic in Redis and in memory, so guesses sent at
 * once cannot all slip in before their failures count). False: closed for this account or
 * address until the window ends. A store that fails outright counts as open, so the owner's
 * sign-in never depends on it.
 */
export async function takeSignInAttempt(email: string, address: string, device?: string): Promise<boolean> {
  const l = store();
  await l.ready;
  const own = device ? l.device.consume(device) : l.account.consume(accountKey(email));
  const taken = await Promise.allSettled([own, l.address.consume(addressKey(address))]);
  return !taken.some((t) => t.status === "rejected" && t.reason instanceof RateLimiterRes);
}

/** A right password: the account's (and browser's) failures are forgotten and the address gets its attempt back. */
export async function signInSucceeded(email: string, address: string, device?: string): Promise<void> {
  const l = store();
  await Promise.allSettled([l.account.delete(accountKey(email)), ...(device ? [l.device.delete(device)] : []), l.address.reward(addressKey(address), 1)]);
}

/**
 * Takes one of the owner's attempts to connect an account with a password, before the
 * network is asked: null when taken, else the seconds until one is free again. A store that
 * fails outright counts as open.
 */
export async function takeConnectAttempt(owner: string): Promise<number | null> {
  const l = store();
  await l.ready;
  try {
    await l.connect.consume(owner);
    return null;
  } catch (e) {
    return e instanceof RateLimiterRes ? Math.max(1, Math.ceil(e.msBeforeNext / 1000)) : null;
  }
}

/** A connection made: its attempt is given back. */
export async function connectSucceeded(owner: string): Promise<void> {
  await store()
    .connect.reward(owner, 1)
    .catch(() => {});
}

/** Tests switch between stores by changing REDIS_URL. */
export function resetSignInLimiter() {
  limiters = undefined;
}
