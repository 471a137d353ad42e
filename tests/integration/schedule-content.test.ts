import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { listScheduledOp } from "@/lib/operations/publishing/list-scheduled";
import { scheduleContentOp } from "@/lib/operations/publishing/schedule-content";
import { unscheduleContentOp } from "@/lib/operations/publishing/unschedule-content";
import { runDue } from "@/lib/adapters/scheduler";
import { postDrafts } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { approved, draft, inSeconds, row, sandboxCount } from "../helpers/publishing";

withDatabase();

withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1" });

/** Runs the scheduler as if the clock read `at`. */
const runAt = async (at: Date) => runDue(await db(), { clock: () => at });

describe("schedule_content", () => {
  it("is refused while the owner's publishing switch is off, and needs approval of the exact time", async () => {
    const off = await makeUser({ publishing: false });
    const d0 = await draft(off);
    expectError(
      await call("schedule_content", { type: "post", id: d0.id, scheduled_for: inSeconds(60).toISOString() }, { token: off.token }),
      403,
      "publishing_not_allowed",
    );

    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "Launch day\nWe ship.");
    const at = inSeconds(3600);
    const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() }, { token: u.token });
    expectError(res, 403, "confirmation_required");
    expect(res.body.error.confirmation.action).toEqual({
      operation: "schedule_content",
      type: "post",
      id: d.id,
      title: "Launch day",
      scheduled_for: at.toISOString(),
    });
    expect((await row("post", d.id)).status).toBe("draft");
    // The approval is for that time only: another time asks again.
    const other = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(7200).toISOString() }, { token: u.token });
    expect(other.body.error.confirmation.id).not.toBe(res.body.error.confirmation.id);
  });

  it("checks the time: an offset is required, at least the minimum lead, at most 365 days", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const bad = ["2030-01-01T10:00:00", new Date(Date.now() - 60_000).toISOString(), inSeconds(366 * 86400).toISOString()];
    for (const scheduled_for of bad) {
      const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for }, { token: u.token });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details[0].path).toBe("scheduled_for");
    }
  });

  it("publishes a scheduled draft exactly once, not before its time", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "Scheduled (with parentheses) #tag");
    const at = inSeconds(120);
    const ok = expectOk(await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    expect(ok).toEqual({ id: d.id, type: "post", platform: "pronet", scheduled_for: at.toISOString(), status: "scheduled", rescheduled: false });

    await runAt(new Date(at.getTime() - 500));
    expect(await sandboxCount(d.id)).toBe(0);
    await runAt(new Date(at.getTime() + 100));
    await runAt(new Date(at.getTime() + 200));
    expect(await sandboxCount(d.id, "pronet")).toBe(1);
    const r = await row("post", d.id);
    expect(r.status).toBe("published");
    expect(r.platformUrl).toMatch(new RegExp(`/sandbox/pronet/${r.platformPostId}$`));
    const item = expectOk(await call("fetch_item", { type: "post", id: d.id }, { token: u.token }), fetchItemOp.output);
    expect(item.status).toBe("published");
  });

  it("a tweet goes to micro", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "tweet", "Short and sweet");
    const at = inSeconds(120);
    expectOk(await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    await runAt(new Date(at.getTime() + 1000));
    expect(await sandboxCount(d.id, "micro")).toBe(1);
    expect(await sandboxCount(d.linked_post_id!)).toBe(0);
  });

  it("reschedules in one step, and publishes once at the new time only", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const first = inSeconds(120);
    const later = inSeconds(600);
    expectOk(await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: first.toISOString() }), scheduleContentOp.output);
    const moved = expectOk(await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: later.toISOString() }), scheduleContentOp.output);
    expect(moved.rescheduled).toBe(true);
    await runAt(new Date(first.getTime() + 1000));
    expect(await sandboxCount(d.id)).toBe(0);
    expect((await row("post", d.id)).status).toBe("scheduled");
    await runAt(new Date(later.getTime() + 1000));
    await runAt(new Date(later.getTime() + 2000));
    expect(await sandboxCount(d.id)).toBe(1);
  });

  it("never publishes a draft unscheduled or deleted before its time", async () => {
    const u = await makeUser({ publishing: true });
    const a = await draft(u);
    const b = await draft(u);
    const at = inSeconds(120);
    for (const d of [a, b])
      expectOk(await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);

    const un = expectOk(await call("unschedule_content", { type: "post", id: a.id }, { token: u.token }), unscheduleContentOp.output);
    expect(un).toEqual({ id: a.id, type: "post", unscheduled: true, previous_scheduled_for: at.toISOString(), status: "draft" });
    const again = expectOk(await call("unschedule_content", { type: "post", id: a.id }, { token: u.token }), unscheduleContentOp.output);
    expect(again.unscheduled).toBe(false);
    const del = await approved(u, "delete_draft", { type: "post", id: b.id });
    expect(del.body).toMatchObject({ deleted: true, cancelled_schedule: true });

    await runAt(new Date(at.getTime() + 1000));
    expect(await sandboxCount(a.id)).toBe(0);
    expect(await sandboxCount(b.id)).toBe(0);
    expect((await row("post", a.id)).status).toBe("draft");
  });

  it("refuses to reschedule a published draft, and to unschedule one being published", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const at = inSeconds(120);
    expectOk(await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() }), scheduleContentOp.output);
    await runAt(new Date(at.getTime() + 1000));
    const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(120).toISOString() }, { token: u.token });
    expectError(res, 422, "action_failed");
    expect(res.body.error.hint).toContain((await row("post", d.id)).platformUrl);

    const p = await draft(u);
    await (await db()).update(postDrafts).set({ status: "publishing" }).where(eq(postDrafts.id, p.id));
    expectError(await call("unschedule_content", { type: "post", id: p.id }, { token: u.token }), 422, "action_failed");
  });

  it("another user's draft answers like a missing one", async () => {
    const owner = await makeUser({ publishing: true });
    const other = await makeUser({ publishing: true });
    const d = await draft(owner);
    const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(120).toISOString() }, { token: other.token });
    const missing = await call(
      "schedule_content",
      { type: "post", id: "00000000-0000-4000-8000-000000000000", scheduled_for: inSeconds(120).toISOString() },
      { token: other.token },
    );
    expectError(res, 422, "action_failed");
    expect(res.body).toEqual(missing.body);
    expectError(await call("unschedule_content", { type: "post", id: d.id }, { token: other.token }), 422, "action_failed");
  });
});

describe("list_scheduled", () => {
  it("lists the range in time order, filters by platform and pages", async () => {
    const u = await makeUser({ publishing: true });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const d = await draft(u, i % 2 ? "tweet" : "post", `Item ${i}`);
      expectOk(
        await approved(u, "schedule_content", { type: i % 2 ? "tweet" : "post", id: d.id, scheduled_for: inSeconds(3600 * (5 - i)).toISOString() }),
        scheduleContentOp.output,
      );
      ids.unshift(d.id);
    }
    const all = expectOk(await call("list_scheduled", {}, { token: u.token }), listScheduledOp.output);
    expect(all.items.map((i: { id: string }) => i.id)).toEqual(ids);
    const micro = expectOk(await call("list_scheduled", { platform: "micro" }, { token: u.token }), listScheduledOp.output);
    expect(micro.items.every((i: { type: string; platform: string }) => i.type === "tweet" && i.platform === "micro")).toBe(true);
    expect(micro.items).toHaveLength(2);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = expectOk(await call("list_scheduled", { limit: 2, ...(cursor && { cursor }) }, { token: u.token }), listScheduledOp.output);
      seen.push(...page.items.map((i: { id: string }) => i.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    const narrow = expectOk(
      await call("list_scheduled", { from: inSeconds(1800).toISOString(), to: inSeconds(2.5 * 3600).toISOString() }, { token: u.token }),
      listScheduledOp.output,
    );
    expect(narrow.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
    expectError(
      await call("list_scheduled", { from: inSeconds(10).toISOString(), to: inSeconds(5).toISOString() }, { token: u.token }),
      400,
      "invalid_request",
    );
    expectError(await call("list_scheduled", { to: inSeconds(367 * 86400).toISOString() }, { token: u.token }), 400, "invalid_request");
    // Nobody else's drafts.
    const other = await makeUser();
    expect(expectOk(await call("list_scheduled", {}, { token: other.token }), listScheduledOp.output).items).toEqual([]);
  });

  it("refuses times PostgreSQL cannot hold (year 0, in a range or a forged cursor) as invalid_request, not a server error", async () => {
    const u = await makeUser();
    const cases: [Record<string, unknown>, string][] = [
      [{ from: "0000-01-01T00:00:00Z", to: "0000-02-01T00:00:00Z" }, "from"],
      [{ from: "0001-01-01T00:00:00+01:00" }, "from"], // year 0 once in UTC
      [{ from: "9999-12-31T23:00:00Z", to: "9999-12-31T23:30:00-01:00" }, "to"], // year 10000 in UTC
      [{ cursor: Buffer.from(JSON.stringify({ k: "scheduled", a: "0000-01-01T00:00:00.000Z", i: randomUUID() })).toString("base64url") }, "cursor"],
      [{ cursor: Buffer.from(JSON.stringify({ k: "scheduled", a: "Tue, 01 Jan 2030 00:00:00 GMT", i: randomUUID() })).toString("base64url") }, "cursor"],
    ];
    for (const [input, path] of cases) {
      const res = await call("list_scheduled", input, { token: u.token });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    // A late `from` alone: its default 30 days would end in year 10000; they end at the last instant PostgreSQL holds.
    const late = await call("list_scheduled", { from: "9999-12-31T00:00:00Z" }, { token: u.token });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body).toMatchObject({ from: "9999-12-31T00:00:00.000Z", to: "9999-12-31T23:59:59.999Z", items: [] });
  });
});
