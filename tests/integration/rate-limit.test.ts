import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { consumeRequest, limitFor, resetRateLimiter } from "@/lib/adapters/ratelimit";
import { slidingWindow } from "@/lib/adapters/ratelimit/sliding-window";
import { config } from "@/lib/core/config";
import { call, expectError, makeUser, type Called } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { reconfigure, withConfig } from "../helpers/env";
import { inProcessFetch } from "../helpers/mcp";
import { TcpProxy } from "../helpers/tcp-proxy";

withDatabase();

const REDIS = "redis://127.0.0.1:6379";
// The vitest config lifts every limit 100-fold; these tests need the real plan values.
withConfig({ RATE_LIMIT_SCALE: "1" });
let restore = () => {};

/** Changes the limiter's configuration until the end of the test, and forgets its store. */
function configure(vars: { RATE_LIMIT_SCALE?: string; REDIS_URL?: string }) {
  restore = reconfigure(vars);
  resetRateLimiter();
}

beforeEach(() => resetRateLimiter());
afterEach(() => {
  restore();
  restore = () => {};
  resetRateLimiter();
});
afterAll(() => resetRateLimiter());

const MINUTE = 60_000;
/** The middle of the current clock minute, so injected times never straddle a window edge. */
const midMinute = () => Math.floor(Date.now() / MINUTE) * MINUTE + 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A REST burst runs on the real clock: keep it clear of the window edge. */
async function awayFromMinuteEdge() {
  const into = Date.now() % MINUTE;
  if (into > MINUTE - 4000) await sleep(MINUTE - into + 500);
}

function expectRateHeaders(res: Called, limit: number) {
  expect(res.headers.get("RateLimit-Policy")).toBe(`"per-user";q=${limit};w=60`);
  expect(res.headers.get("RateLimit")).toMatch(/^"per-user";r=\d+;t=\d+$/);
}

describe("limits per plan", () => {
  it("is 30 a minute on Plus and 60 on Premium and Creator", () => {
    expect(limitFor("plus")).toBe(30);
    expect(limitFor("premium")).toBe(60);
    expect(limitFor("creator")).toBe(60);
  });

  it("multiplies every plan's limit by RATE_LIMIT_SCALE", () => {
    configure({ RATE_LIMIT_SCALE: "2.5" });
    expect(limitFor("plus")).toBe(75);
    expect(limitFor("premium")).toBe(150);
    expect(limitFor("creator")).toBe(150);
  });
});

describe("over REST", () => {
  it("admits exactly the limit of 50 concurrent requests and refuses the rest with 429", async () => {
    const u = await makeUser({ plan: "plus" });
    const other = await makeUser({ plan: "plus" });
    await awayFromMinuteEdge();
    const answers = await Promise.all(Array.from({ length: 50 }, () => call("search_content", {}, { token: u.token })));
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(30);
    expect(refused).toHaveLength(20);
    for (const r of answers) expectRateHeaders(r, 30);
    for (const r of refused) {
      expectError(r, 429, "rate_limited");
      const retry = r.headers.get("Retry-After")!;
      expect(retry).toMatch(/^\d+$/);
      expect(Number(retry)).toBeGreaterThanOrEqual(1);
    }
    // Another user's budget is untouched.
    const theirs = await call("search_content", {}, { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("RateLimit")).toMatch(/^"per-user";r=29;/);
  });

  it("gives Premium 60 a minute", async () => {
    const u = await makeUser({ plan: "premium" });
    await awayFromMinuteEdge();
    const answers = await Promise.all(Array.from({ length: 65 }, () => call("search_content", {}, { token: u.token })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(60);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(5);
  });
});

// The price of an MCP request is set in lib/operations/budget.ts: a point per message, paid
// from the same budget as REST; the request's first point before its body is read, and taken
// by its first tool call. Read here through the budget REST reports as left.
describe("over MCP", () => {
  const mcp = (token: string, body: unknown) =>
    inProcessFetch(config().mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-03-26",
      },
      body: JSON.stringify(body),
    });
  const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
  const search = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_content", arguments: {} } });
  const left = async (token: string) => Number(/;r=(\d+);/.exec((await call("search_content", {}, { token })).headers.get("RateLimit")!)![1]);

  it("charges every message one point from the REST budget, tool calls included", async () => {
    const u = await makeUser({ plan: "plus" });
    await awayFromMinuteEdge();
    expect(await left(u.token)).toBe(29);
    expect((await mcp(u.token, [ping(1), ping(2), { jsonrpc: "2.0", method: "notifications/initialized" }])).status).toBe(200); // 3
    expect((await mcp(u.token, [ping(3), search(4)])).status).toBe(200); // 2
    expect((await mcp(u.token, search(5))).status).toBe(200); // 1
    expect((await mcp(u.token, [{ jsonrpc: "2.0", id: "x", result: {} }])).status).toBe(202); // an answer: 1
    expect(await left(u.token)).toBe(30 - 1 - 3 - 2 - 1 - 1 - 1);
  });

  it("refuses a request whose messages go past the budget, and a tool call as a tool error", async () => {
    const u = await makeUser({ plan: "plus" });
    await awayFromMinuteEdge();
    for (let i = 0; i < 28; i++) expect((await call("search_content", {}, { token: u.token })).status).toBe(200);
    // The 29th and 30th points are paid, the 31st is not: the request is refused.
    const over = await mcp(u.token, [ping(1), ping(2), ping(3)]);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    // Out of budget: the request's own point is refused, answered with its id.
    const single = await mcp(u.token, ping(7));
    expect([single.status, (await single.json()).id]).toEqual([429, 7]);
    // A tool call takes the refused point and answers a tool error the model can read.
    const tool = await mcp(u.token, search(8));
    expect(tool.status).toBe(200);
    const result = (await tool.json()).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text).error.code).toBe("rate_limited");
  });
});

describe("the sliding window", () => {
  const store = () => new RateLimiterMemory({ keyPrefix: `t${randomUUID()}`, points: Number.MAX_SAFE_INTEGER, duration: 120 });
  const burst = async (s: RateLimiterMemory, user: string, limit: number, now: number, n: number) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await slidingWindow(s, user, limit, now));
    return out;
  };
  const minuteStart = Math.floor(Date.now() / MINUTE) * MINUTE;

  it("counts a burst at the end of one minute against the start of the next", async () => {
    const s = store();
    const end = minuteStart + 59_000;
    const first = await burst(s, "a", 10, end, 11);
    expect(first.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(first[10].allowed).toBe(false);
    // One second into the next minute the burst still weighs 59/60 of itself.
    const next = await slidingWindow(s, "a", 10, minuteStart + MINUTE + 1000);
    expect(next.allowed).toBe(false);
    expect(next.remaining).toBe(0);
  });

  it("returns the budget gradually over the next minute", async () => {
    const s = store();
    await burst(s, "a", 10, minuteStart + 59_999, 10);
    const admitted = async (at: number) => (await burst(s, "a", 10, minuteStart + MINUTE + at, 12)).filter((d) => d.allowed).length;
    // 15 s in: 3/4 of the burst remains (7.5), room for 2. 45 s in: 1/4 remains, room for 7 in all.
    expect(await admitted(15_000)).toBe(2);
    expect(await admitted(45_000)).toBe(5);
    // A full window after the burst the previous minute no longer counts.
    expect((await burst(s, "b", 10, minuteStart + 2 * MINUTE + 1, 11)).filter((d) => d.allowed).length).toBe(10);
  });

  it("admits a request made Retry-After seconds after a refusal", async () => {
    // Refusals in different situations: early and late in a window, with and without a previous window.
    const cases = [
      { prev: [10, 59_000], at: 1000 },
      { prev: [10, 30_000], at: 20_000 },
      { prev: [0, 0], at: 5000 },
      { prev: [0, 0], at: 50_000 },
      { prev: [4, 10_000], at: 2000 },
    ];
    for (const { prev, at } of cases) {
      const s = store();
      await burst(s, "u", 10, minuteStart + prev[1], prev[0]);
      const now = minuteStart + MINUTE + at;
      let refused;
      for (let i = 0; i < 20 && !refused; i++) {
        const d = await slidingWindow(s, "u", 10, now);
        if (!d.allowed) refused = d;
      }
      expect(refused, JSON.stringify({ prev, at })).toBeDefined();
      expect(Number.isInteger(refused!.retryAfter) && refused!.retryAfter >= 1).toBe(true);
      const later = await slidingWindow(s, "u", 10, now + refused!.retryAfter * 1000);
      expect(later.allowed, JSON.stringify({ prev, at, retryAfter: refused!.retryAfter })).toBe(true);
    }
  });

  it("keeps users' budgets apart", async () => {
    const s = store();
    const now = minuteStart + 20_000;
    await burst(s, "a", 5, now, 6);
    expect((await slidingWindow(s, "a", 5, now)).allowed).toBe(false);
    expect((await slidingWindow(s, "b", 5, now)).allowed).toBe(true);
  });
});

describe("with Redis", () => {
  const direct = new Redis(REDIS, { lazyConnect: true });
  afterAll(() => direct.quit());
  /** What the shared Redis store holds for a user in the window of `now`. */
  const stored = async (user: string, now: number) => Number((await direct.get(`rl:req:${user}:${Math.floor(now / MINUTE)}`)) ?? 0);
  const admittedOf = async (user: string, now: number, n: number) => {
    let ok = 0;
    for (let i = 0; i < n; i++) if ((await consumeRequest(user, "plus", now)).allowed) ok++;
    return ok;
  };
  /** A store's client connects asynchronously; until then the insurance limiter answers. */
  async function untilRedisUsed(timeoutMs = 10_000) {
    const probe = `rl-probe-${randomUUID()}`;
    const now = midMinute();
    for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(50)) {
      await consumeRequest(probe, "creator", now);
      if ((await stored(probe, now)) > 0) return true;
    }
    return false;
  }

  it("counts a burst arriving in one turn with one increment, admitting exactly the limit in arrival order", async () => {
    const s = new RateLimiterRedis({ storeClient: direct, keyPrefix: `t${randomUUID()}`, points: Number.MAX_SAFE_INTEGER, duration: 120 });
    const increments: number[] = [];
    const consume = s.consume.bind(s);
    s.consume = (key, points) => (increments.push(Number(points)), consume(key, points));
    const now = midMinute();
    const decisions = await Promise.all(Array.from({ length: 12 }, () => slidingWindow(s, "a", 10, now)));
    expect(increments).toEqual([12]);
    expect(decisions.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
    // The refused two gave their points back; a later turn makes an increment of its own.
    expect((await s.get(`a:${Math.floor(now / MINUTE)}`))?.consumedPoints).toBe(10);
    expect((await slidingWindow(s, "a", 10, now)).allowed).toBe(false);
    expect(increments).toEqual([12, 1]);
  });

  it("reads the previous minute once for a burst in one turn of a minute's first second, and again in the next turn", async () => {
    const s = new RateLimiterRedis({ storeClient: direct, keyPrefix: `t${randomUUID()}`, points: Number.MAX_SAFE_INTEGER, duration: 120 });
    const reads: string[] = [];
    const get = s.get.bind(s);
    s.get = (key) => (reads.push(String(key)), get(key));
    const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
    await Promise.all(Array.from({ length: 8 }, () => slidingWindow(s, "a", 100, minute - 10_000))); // 8 in the previous minute
    reads.length = 0;
    const firstSecond = minute + 500;
    const burst = await Promise.all(Array.from({ length: 12 }, () => slidingWindow(s, "a", 15, firstSecond)));
    expect(reads).toEqual([`a:${minute / MINUTE - 1}`]);
    // 8 × 59.5/60 of the previous minute weigh 7.93: 7 of the 12 fit under 15, in arrival order.
    expect(burst.map((d) => d.allowed)).toEqual([...Array(7).fill(true), ...Array(5).fill(false)]);
    // In the first second the count is not kept: a later turn reads it again, as fresh as its own.
    await slidingWindow(s, "a", 15, firstSecond);
    expect(reads).toHaveLength(2);
  });

  it("shares one budget between two limiter stores (two processes)", async () => {
    configure({ REDIS_URL: REDIS });
    const user = `rl-test-${randomUUID()}`;
    const now = midMinute();
    expect(await admittedOf(user, now, 15)).toBe(15);
    expect(await stored(user, now)).toBe(15);
    // A second store with an empty in-process memory, as a freshly started process has.
    resetRateLimiter();
    expect(await admittedOf(user, now, 30)).toBe(15);
  });

  describe("when Redis is unreachable", () => {
    const proxy = new TcpProxy("127.0.0.1", 6379);
    beforeAll(() => proxy.start());
    afterAll(() => proxy.stop());

    it("still answers and limits, never 500, and uses Redis again once it is back", async () => {
      configure({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
      expect(await untilRedisUsed()).toBe(true);
      const u = await makeUser({ plan: "plus" });
      await proxy.stop();
      await awayFromMinuteEdge();
      const during: Called[] = [];
      for (let i = 0; i < 35; i++) during.push(await call("search_content", {}, { token: u.token }));
      expect(during.map((r) => r.status).filter((s) => s !== 200 && s !== 429)).toEqual([]);
      for (const r of during) expectRateHeaders(r, 30);
      // The insurance limiter keeps the per-user limit while Redis is away.
      expect(during.filter((r) => r.status === 200).length).toBeLessThanOrEqual(30);
      expectError(during[during.length - 1], 429, "rate_limited");

      // The same store reconnects by itself and counts in Redis again.
      await proxy.start();
      expect(await untilRedisUsed(), "the Redis store was not used again after the proxy restarted").toBe(true);
      const user = `rl-back-${randomUUID()}`;
      const now = midMinute();
      expect(await admittedOf(user, now, 10)).toBe(10);
      expect(await stored(user, now)).toBe(10);
    });
  });
});
