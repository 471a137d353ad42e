import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import type { Platform, PlatformName } from "@/lib/adapters/platforms";
import { postDrafts } from "@/drizzle/schema";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

/** `n` LinkedIn posts of the user, due a second ago. */
async function due(userId: string, n: number) {
  const at = new Date(Date.now() - 1000);
  const rows = await (
    await db()
  )
    .insert(postDrafts)
    .values(
      Array.from({ length: n }, (_, i) => ({ userId, title: `P${i}`, body: `Post ${i} ${randomUUID()}`, status: "scheduled" as const, scheduledFor: at })),
    )
    .returning({ id: postDrafts.id });
  return rows.map((r) => r.id);
}

describe("scheduler: calls per account", () => {
  it("runs at most perAccount calls of one account at once, and another account's drafts are not held up", async () => {
    const big = await makeUser({ publishing: true });
    const small = await makeUser({ publishing: true });
    const ids = [...(await due(big.id, 30)), ...(await due(small.id, 3))];
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    const order: string[] = [];
    const open = async (_db: unknown, userId: string, name: PlatformName): Promise<Platform> => ({
      name,
      kind: "counting",
      probe: async () => ({ reachable: true, detail: "" }),
      comment: async () => ({ postId: "c", url: null }),
      metrics: async () => new Map(),
      async publish() {
        running.set(userId, (running.get(userId) ?? 0) + 1);
        most.set(userId, Math.max(most.get(userId) ?? 0, running.get(userId)!));
        await new Promise((r) => setTimeout(r, 20));
        running.set(userId, running.get(userId)! - 1);
        order.push(userId);
        return { postId: randomUUID(), url: null };
      },
    });
    const r = await runDue(await db(), { ports: { ...ports(), platforms: { ...ports().platforms, open } }, batch: 40, concurrency: 10, perAccount: 3 });
    expect(r.published).toBe(33);
    expect(most.get(big.id)).toBe(3);
    expect(most.get(small.id)).toBeLessThanOrEqual(3);
    // The small account took its turns beside the big one instead of waiting for all 30.
    expect(order.lastIndexOf(small.id)).toBeLessThan(order.length - 10);
    const rows = await (await db()).select({ status: postDrafts.status }).from(postDrafts).where(inArray(postDrafts.id, ids));
    expect(rows.every((x) => x.status === "published")).toBe(true);
  });

  it("writes a published outcome within about a second while another account's slow calls keep the pass going", async () => {
    const quick = await makeUser({ publishing: true });
    const slow = await makeUser({ publishing: true });
    const [first] = await due(quick.id, 1);
    await due(slow.id, 2);
    let posted!: () => void;
    const out = new Promise<void>((r) => (posted = r));
    const open = async (_db: unknown, userId: string, name: PlatformName): Promise<Platform> => ({
      name,
      kind: "counting",
      probe: async () => ({ reachable: true, detail: "" }),
      comment: async () => ({ postId: "c", url: null }),
      metrics: async () => new Map(),
      async publish() {
        if (userId === quick.id) posted();
        else await new Promise((r) => setTimeout(r, 3000));
        return { postId: randomUUID(), url: null };
      },
    });
    const pass = runDue(await db(), { ports: { ...ports(), platforms: { ...ports().platforms, open } }, batch: 10, concurrency: 4, perAccount: 1 });
    await out;
    // Held in memory until the pass ends (6 s), a crash would leave it to the stuck sweep as
    // unknown, and the owner could be led to post it again.
    let passing = true;
    void pass.finally(() => (passing = false));
    const status = async () =>
      (
        await (
          await db()
        )
          .select({ status: postDrafts.status })
          .from(postDrafts)
          .where(inArray(postDrafts.id, [first]))
      )[0].status;
    await expect.poll(status, { timeout: 4000, interval: 100 }).toBe("published");
    expect(passing).toBe(true);
    expect((await pass).published).toBe(3);
  }, 30_000);

  it("looks the account up again during a long pass: a connection replaced meanwhile is posted to within seconds", async () => {
    const owner = await makeUser({ publishing: true });
    await due(owner.id, 4);
    let now = Date.now();
    let connected = "@old";
    const postedAs: string[] = [];
    // Each call takes 3 s of the pass's clock; after the first, the owner connects another account.
    const open = async (_db: unknown, _userId: string, name: PlatformName): Promise<Platform> => {
      const as = connected;
      return {
        name,
        kind: "counting",
        probe: async () => ({ reachable: true, detail: "" }),
        comment: async () => ({ postId: "c", url: null }),
        metrics: async () => new Map(),
        async publish() {
          postedAs.push(as);
          now += 3000;
          connected = "@new";
          return { postId: randomUUID(), url: null };
        },
      };
    };
    const r = await runDue(await db(), {
      ports: { ...ports(), platforms: { ...ports().platforms, open } },
      clock: () => new Date(now),
      batch: 4,
      concurrency: 1,
      perAccount: 1,
    });
    expect(r.published).toBe(4);
    // Looked up at 0 s and again at 6 s (more than 5 s on).
    expect(postedAs).toEqual(["@old", "@old", "@new", "@new"]);
  });

  it("does not post a draft that waited in its account's lane for half the stuck limit: it goes back to scheduled", async () => {
    const owner = await makeUser({ publishing: true });
    const ids = await due(owner.id, 3);
    const stuckMs = ports().config().PUBLISH_STUCK_SECONDS * 1000;
    // The platform is slow: every call moves the clock on by 40 % of the stuck limit, so the
    // third draft, queued behind two calls of the same account, has waited 80 % of it.
    let now = Date.now();
    const posted: string[] = [];
    const open = async (_db: unknown, _userId: string, name: PlatformName): Promise<Platform> => ({
      name,
      kind: "counting",
      probe: async () => ({ reachable: true, detail: "" }),
      comment: async () => ({ postId: "c", url: null }),
      metrics: async () => new Map(),
      async publish(req) {
        now += 0.4 * stuckMs;
        posted.push(req.draftId);
        return { postId: randomUUID(), url: null };
      },
    });
    const r = await runDue(await db(), {
      ports: { ...ports(), platforms: { ...ports().platforms, open } },
      clock: () => new Date(now),
      batch: 3,
      concurrency: 3,
      perAccount: 1,
    });
    expect(r.published).toBe(2);
    expect(r.retrying).toBe(1);
    expect(posted).toHaveLength(2);
    const rows = await (await db()).select({ id: postDrafts.id, status: postDrafts.status }).from(postDrafts).where(inArray(postDrafts.id, ids));
    const left = rows.find((x) => !posted.includes(x.id));
    expect(left?.status).toBe("scheduled"); // taken again by a later pass, never marked unknown unposted
  });
});
