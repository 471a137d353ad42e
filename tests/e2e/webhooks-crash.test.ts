import type { ChildProcess } from "node:child_process";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { webhookDeliveries } from "@/drizzle/schema";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { draft } from "../helpers/publishing";
import { kill, killAll, spawnScheduler } from "../helpers/scheduler-spawn";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

// A publishing process (which also delivers webhooks) is killed with SIGKILL while a webhook
// is in flight, and another is killed before it sends anything: no event is lost, each is
// delivered by a fresh process under its one webhook-id. PostgreSQL only (separate processes).
const PG = !!process.env.DATABASE_URL;
const database = withDatabase();
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await killAll();
  await rx.close();
});

async function spawnDeliverer(): Promise<ChildProcess> {
  const [{ name }] = (await database.current().db.execute(sql`select current_database() as name`)) as unknown as { name: string }[];
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const env = { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: "error", SCHEDULER_POLL_MS: "100", WEBHOOK_TIMEOUT_MS: "1000" };
  return spawnScheduler(env);
}

async function until(check: () => Promise<boolean> | boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!PG)("webhooks across kill -9", () => {
  it("loses no event when the delivering process dies mid-send or before sending", { timeout: 90_000 }, async () => {
    const u = await makeUser();
    const hook = await call("manage_webhooks", { action: "create", url: `${rx.url}/crash`, events: ["draft.created"] }, { token: u.token });
    const secret = hook.body.secret as string;
    rx.answer("/crash", "hang");
    const first = await spawnDeliverer();
    await draft(u);
    // The first delivery reaches the receiver, which holds it unanswered; the process dies.
    await until(() => rx.on("/crash").length === 1);
    await kill(first);
    // Changes made while no deliverer runs are in the outbox, committed with them.
    for (let i = 0; i < 3; i++) await draft(u);
    const pending = await (await db()).select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "pending"));
    expect(pending.length).toBe(4);
    const second = await spawnDeliverer();
    await until(async () => (await (await db()).select().from(webhookDeliveries).where(eq(webhookDeliveries.status, "delivered"))).length === 4).catch(
      async (e) => {
        console.log(
          await (await db()).select().from(webhookDeliveries),
          rx.received.map((r) => [r.path, r.status]),
        );
        throw e;
      },
    );
    await kill(second);
    const got = rx.on("/crash");
    const ok = got.filter((r) => r.status === 204);
    expect(ok).toHaveLength(4);
    expect(new Set(ok.map((r) => r.headers["webhook-id"])).size).toBe(4);
    // The one in flight at the kill went again under its own webhook-id.
    expect(ok.map((r) => r.headers["webhook-id"])).toContain(got[0].headers["webhook-id"]);
    for (const r of ok) expect(rx.verify(r, secret).type).toBe("draft.created");
  });
});
