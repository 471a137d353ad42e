import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { authenticate, revokeApp } from "@/lib/domain/apps/tokens";
import { execute } from "@/lib/operations/execute";
import { ports } from "@/lib/adapters/ports";
import { approvals, connectedApps } from "@/drizzle/schema";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { findSandboxPost } from "@/lib/adapters/platforms/sandbox";
import { runDue } from "@/lib/adapters/scheduler";
import { call, expectError, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { approved, draft, row, sandboxCount } from "../helpers/publishing";

withDatabase();

describe("publish_now", () => {
  it("an app disconnected after its token was checked neither spends an approval nor opens one", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const asked = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    expect(await decideApproval(await db(), u.id, asked.body.error.confirmation.id, "approved")).toBe(true);
    // A call already past its token check (a task about to use the approval, say) while the
    // owner presses Disconnect: it runs on the caller it started with.
    const auth = await authenticate(await db(), u.token, config().baseUrl);
    if (!auth.ok) throw new Error(auth.reason);
    const d0 = await db();
    const run = () =>
      execute({ db: d0, caller: auth.caller, now: () => new Date(), ports: ports(), requestId: randomUUID() }, publishNowOp, { type: "post", id: d.id });
    // The app's row is marked first, its approval still approved.
    await (await db()).update(connectedApps).set({ revokedAt: new Date() }).where(eq(connectedApps.id, u.appId));
    await expect(run()).rejects.toMatchObject({ code: "unauthorized" });
    expect(await sandboxCount(d.id)).toBe(0);
    // Once the disconnect is whole, the call is not turned into a new approval for the owner.
    await revokeApp(await db(), u.id, u.appId);
    await expect(run()).rejects.toMatchObject({ code: "unauthorized" });
    const open = await (
      await db()
    )
      .select()
      .from(approvals)
      .where(and(eq(approvals.appId, u.appId), eq(approvals.status, "pending")));
    expect(open).toEqual([]);
    expect(await sandboxCount(d.id)).toBe(0);
  });

  it("is refused while the owner's publishing switch is off", async () => {
    const u = await makeUser({ publishing: false });
    const d = await draft(u);
    expectError(await call("publish_now", { type: "post", id: d.id }, { token: u.token }), 403, "publishing_not_allowed");
    expect(await sandboxCount(d.id)).toBe(0);
  });

  it("needs the owner's approval, publishes once, and never again", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "Going live <now> [really] *bold* \\ done");
    const first = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    expectError(first, 403, "confirmation_required");
    expect(first.body.error.confirmation.action).toMatchObject({ operation: "publish_now", type: "post", id: d.id });
    expect(await sandboxCount(d.id)).toBe(0);

    const ok = expectOk(await approved(u, "publish_now", { type: "post", id: d.id }), publishNowOp.output);
    expect(ok.platform).toBe("pronet");
    expect(ok.url).toMatch(new RegExp(`/sandbox/pronet/${ok.platform_post_id}$`));
    const shown = await findSandboxPost(await db(), "pronet", ok.platform_post_id);
    expect(shown?.text).toBe("Going live <now> [really] *bold* \\ done");
    // The page shows it under its own platform only.
    expect(await findSandboxPost(await db(), "micro", ok.platform_post_id)).toBeNull();

    const again = await approved(u, "publish_now", { type: "post", id: d.id });
    expectError(again, 422, "action_failed");
    expect(again.body.error.hint).toContain(ok.url);
    expect(await sandboxCount(d.id)).toBe(1);
    const item = expectOk(await call("fetch_item", { type: "post", id: d.id }, { token: u.token }), fetchItemOp.output);
    expect(item.status).toBe("published");
    expectError(await call("update_draft", { type: "post", id: d.id, body: "edit" }, { token: u.token }), 422, "action_failed");
  });

  it("two simultaneous calls with one approval post once", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "tweet", "Only once please");
    const ask = await call("publish_now", { type: "tweet", id: d.id }, { token: u.token });
    expect(await decideApproval(await db(), u.id, ask.body.error.confirmation.id, "approved")).toBe(true);
    const results = await Promise.all([1, 2, 3].map(() => call("publish_now", { type: "tweet", id: d.id }, { token: u.token })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await sandboxCount(d.id, "micro")).toBe(1);
  });

  it("publishing a scheduled draft now takes it off the scheduler's list", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const at = new Date(Date.now() + 3600_000);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() })).status).toBe(200);
    expectOk(await approved(u, "publish_now", { type: "post", id: d.id }), publishNowOp.output);
    await runDue(await db(), { clock: () => new Date(at.getTime() + 1000) });
    expect(await sandboxCount(d.id)).toBe(1);
    expect((await row("post", d.id)).status).toBe("published");
  });

  it("a draft being published cannot be deleted; another user's draft answers like a missing one", async () => {
    const owner = await makeUser({ publishing: true });
    const other = await makeUser({ publishing: true });
    const d = await draft(owner);
    const res = await call("publish_now", { type: "post", id: d.id }, { token: other.token });
    const missing = await call("publish_now", { type: "post", id: "00000000-0000-4000-8000-000000000000" }, { token: other.token });
    expectError(res, 422, "action_failed");
    expect(res.body).toEqual(missing.body);
    expect(await sandboxCount(d.id)).toBe(0);
  });

  it("publishing a series topic's draft completes the topic and the series", async () => {
    const u = await makeUser({ publishing: true });
    const created = await call("manage_series", { action: "create", title: "Three lessons", topics: [{ title: "Lesson one" }] }, { token: u.token });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const topic = created.body.topics[0];
    const d = await call("create_draft", { type: "post", body: "Lesson one: ship small", series_topic_id: topic.id }, { token: u.token });
    const ok = expectOk(await approved(u, "publish_now", { type: "post", id: d.body.id }), publishNowOp.output);
    const s = expectOk(await call("fetch_item", { type: "series", id: created.body.series.id }, { token: u.token }), fetchItemOp.output);
    expect(s.topics[0]).toMatchObject({ status: "done", pronet_completed: true, pronet_post_id: ok.platform_post_id, micro_completed: false });
    expect(s.series.completed_at).not.toBeNull();
  });
});
