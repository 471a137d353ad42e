import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { db } from "@/lib/adapters/db";
import { startScheduler } from "@/lib/adapters/scheduler";
import { FULL_PASS_AT_LEAST_EVERY_MS } from "@/lib/adapters/scheduler/skip-idle-passes";
import { postDrafts, webhookDeliveries } from "@/drizzle/schema";
import { call, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { row, sandboxCount } from "../helpers/publishing";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { manageWebhooksOp } from "@/lib/operations/webhooks/manage-webhooks";

// The publishing loops skip passes that could only find what the last one found
// (lib/adapters/scheduler/skip-idle-passes.ts). What must never happen: a draft or a delivery that comes due, by
// a write or by the clock alone, waiting for the next full pass a minute later.

const database = withDatabase();
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const embedded = () => database.current().kind === "pglite";
/** Waits until `ok()` holds or `ms` pass; returns how long it took. */
async function within(ms: number, ok: () => Promise<boolean>) {
  const start = Date.now();
  while (!(await ok())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(10);
  }
  return Date.now() - start;
}

/** Counts the statements the embedded database receives from now until `stop`. */
function statements() {
  const client = (database.current().db as unknown as { $client: PGlite }).$client;
  const { query, exec, transaction } = client;
  const seen = { n: 0 };
  client.query = (...a: Parameters<PGlite["query"]>) => (seen.n++, query.apply(client, a)) as never;
  client.exec = (...a: Parameters<PGlite["exec"]>) => (seen.n++, exec.apply(client, a));
  client.transaction = (...a: Parameters<PGlite["transaction"]>) => (seen.n++, transaction.apply(client, a)) as never;
  return { seen, stop: () => Object.assign(client, { query, exec, transaction }) };
}

async function scheduled(userId: string, at: Date) {
  const [d] = await (
    await db()
  )
    .insert(postDrafts)
    .values({ userId, title: "Due", body: `Due at ${at.toISOString()} ${Math.random()}`, status: "scheduled", scheduledFor: at })
    .returning({ id: postDrafts.id });
  return d.id;
}

describe("the loops between writes", () => {
  it("an idle embedded server runs no statement; a draft written meanwhile, or coming due later, goes out on time", async () => {
    const u = await makeUser({ publishing: true });
    const loop = startScheduler({ pollMs: 20, db: async () => database.current().db });
    try {
      if (embedded()) {
        // Once the first passes are over (later on a busy machine), a whole second goes by
        // without a statement: a loop that ran any, however rarely, would show here.
        const s = statements();
        let quietFor = 0;
        for (let last = 0; quietFor < 1000;) {
          await sleep(100);
          quietFor = s.seen.n === last ? quietFor + 100 : 0;
          last = s.seen.n;
          expect(s.seen.n, "statements while idle").toBeLessThan(50);
        }
        s.stop();
      } else await sleep(300);
      // Due now, written while the loop was skipping passes.
      const now = await scheduled(u.id, new Date());
      await within(2000, async () => (await sandboxCount(now)) === 1);
      // Due in 800 ms: nothing is written when its time comes.
      const at = new Date(Date.now() + 800);
      const later = await scheduled(u.id, at);
      await sleep(300);
      expect(await sandboxCount(later)).toBe(0);
      await within(2000, async () => (await row("post", later)).status === "published");
      expect(await sandboxCount(later)).toBe(1);
      expect((await row("post", later)).publishedAt!.getTime()).toBeGreaterThanOrEqual(at.getTime());
      expect(Date.now() - at.getTime()).toBeLessThan(FULL_PASS_AT_LEAST_EVERY_MS / 10);
    } finally {
      await loop.stop();
    }
  });

  it("a claim left by a dead process becomes unknown at its limit, with nothing written meanwhile", async () => {
    const u = await makeUser({ publishing: true });
    const stuck = await scheduled(u.id, new Date(Date.now() - 300_000));
    // Claimed 299.2 s ago: the 300-second limit comes 0.8 s from now.
    await (
      await db()
    )
      .update(postDrafts)
      .set({ status: "publishing", claimedAt: new Date(Date.now() - 299_200) })
      .where(eq(postDrafts.id, stuck));
    const loop = startScheduler({ pollMs: 20, db: async () => database.current().db });
    try {
      await sleep(300);
      expect((await row("post", stuck)).status).toBe("publishing");
      await within(2000, async () => (await row("post", stuck)).status === "unknown");
      expect(await sandboxCount(stuck)).toBe(0);
    } finally {
      await loop.stop();
    }
  });

  it("a webhook's retry is sent when it comes due, with nothing written meanwhile", async () => {
    const u = await makeUser();
    const created = await call("manage_webhooks", { action: "create", url: `${rx.url}/quiet`, events: ["draft.created"] }, { token: u.token });
    expectOk(created, manageWebhooksOp.output);
    rx.answer("/quiet", 500);
    const loop = startScheduler({ pollMs: 20, db: async () => database.current().db });
    try {
      expect((await call("create_draft", { type: "post", body: "An event to deliver" }, { token: u.token })).status).toBe(200);
      const delivery = async () => (await (await db()).select().from(webhookDeliveries))[0];
      await within(2000, async () => (await delivery())?.attempts === 1);
      expect(rx.on("/quiet")).toHaveLength(1);
      // Its retry moved to 800 ms from now (the backoff is at least 24 s).
      const at = new Date(Date.now() + 800);
      await (await db()).update(webhookDeliveries).set({ nextAttemptAt: at }).where(eq(webhookDeliveries.status, "pending"));
      await sleep(300);
      expect(rx.on("/quiet")).toHaveLength(1);
      await within(2000, async () => rx.on("/quiet").length === 2);
      expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
      await within(2000, async () => (await delivery()).status === "delivered");
    } finally {
      await loop.stop();
    }
  });
});
