import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports, replacePorts } from "@/lib/adapters/ports";
import { approvals, webhookEndpoints, webhookEvents } from "@/drizzle/schema";
import { config } from "@/lib/core/config";
import { decisionHash } from "@/lib/domain/approvals/approvals";
import { groupInbox, planRequests, waiting, type PlanRequest } from "@/lib/domain/approvals/plans";
import { approvalInbox } from "@/lib/domain/approvals/inbox";
import { csrfToken } from "@/lib/transports/auth/csrf";
import { decidePlan, planPurpose } from "@/lib/transports/owner/plan-review";
import { formDoor, formKey } from "@/lib/transports/owner/door";
import { issueCommandLineToken } from "@/lib/domain/owner/users";
import { call, expectError, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { rpc2026 } from "../helpers/mcp";
import { draft, inSeconds, row } from "../helpers/publishing";

// A plan in one review (issue 55): an app labels several schedule_content calls with one plan;
// the owner sees them in one review and decides each there, through the same door and the
// same decision as a single approval's page, so each approval stays bound to its own content.

withDatabase();
withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1" });

const PLAN = "Week 47";

/** Seven drafts, each proposed for its own day under one plan label; the answers, in order. */
async function proposeWeek(u: TestUser, n = 7) {
  const week = [];
  for (let i = 0; i < n; i++) {
    const d = await draft(u, "post", `Day ${i + 1} of the plan\nWhat we learned on day ${i + 1}.`);
    const args = { type: "post", id: d.id, scheduled_for: inSeconds(86400 * (i + 1)).toISOString() };
    const res = await call("schedule_content", { ...args, plan: PLAN }, { token: u.token });
    expectError(res, 403, "confirmation_required");
    week.push({ draftId: d.id, args, confirmation: res.body.error.confirmation, hint: res.body.error.hint as string });
  }
  return week;
}

/** The review's form as its page posts it: every waiting request shown with its hash, the ticked ones, and the pressed button. */
function pageForm(userId: string, planId: string, shown: PlanRequest[], ticked: string[], decision: "approve" | "decline", csrf = true) {
  const form = new FormData();
  if (csrf) form.append("csrf", csrfToken(userId, planPurpose(planId)));
  form.append("key", formKey());
  for (const r of shown) form.append("item", `${r.id}:${decisionHash(r)}`);
  for (const id of ticked) form.append("approve", id);
  form.append("decision", decision);
  return form;
}

/** A plan of `n` proposed schedules, and its review's requests as the page shows them. */
async function proposedPlan(u: TestUser, n: number) {
  const week = await proposeWeek(u, n);
  const planId = week[0].confirmation.plan.id as string;
  return { week, planId, shown: await planRequests(await db(), u.id, planId) };
}

/** The page's form with every box ticked, as it loads, and `decision` pressed. */
const allTicked = (u: TestUser, planId: string, shown: PlanRequest[], decision: "approve" | "decline") =>
  pageForm(
    u.id,
    planId,
    shown,
    shown.map((r) => r.id),
    decision,
  );

async function press(u: Pick<TestUser, "id">, planId: string, form: FormData) {
  const door = await formDoor(u.id, form, planPurpose(planId));
  expect(door, "the form's CSRF token is the owner's").not.toBeNull();
  return decidePlan(door!, planId, form);
}

const statuses = async (ids: string[]) =>
  Object.fromEntries(
    (await (await db()).select({ id: approvals.id, status: approvals.status }).from(approvals).where(inArray(approvals.id, ids))).map((r) => [r.id, r.status]),
  );

describe("a plan in one review", () => {
  it("seven calls under one label wait in one review; approving five and declining two schedules exactly five", async () => {
    const u = await makeUser({ publishing: true });
    // The owner's webhook hears of each request and decision, as for single approvals.
    await (
      await db()
    )
      .insert(webhookEndpoints)
      .values({ userId: u.id, url: "https://hooks.example/plan", events: ["approval.requested", "approval.decided"], secret: "s" });
    const week = await proposeWeek(u);
    const planIds = new Set(week.map((w) => w.confirmation.plan.id));
    expect(planIds.size).toBe(1);
    const planId = [...planIds][0] as string;
    for (const w of week) {
      expect(w.confirmation.plan).toEqual({ id: planId, label: PLAN, url: `${config().origin}/approvals/plan/${planId}` });
      // Each is still its own approval of its exact action, with its own page.
      expect(w.confirmation.url).toBe(`${config().origin}/confirm/${w.confirmation.id}`);
      expect(w.hint).toContain(w.confirmation.plan.url);
    }
    expect(new Set(week.map((w) => w.confirmation.id)).size).toBe(7);

    // The inbox holds one plan of seven, and no single request beside it.
    const { plans, singles } = groupInbox(await approvalInbox(await db(), u.id));
    expect(singles).toEqual([]);
    expect(plans.map((p) => ({ id: p.id, label: p.label, n: p.requests.length }))).toEqual([{ id: planId, label: PLAN, n: 7 }]);
    expect(plans[0].requests.map((r) => r.action.id)).toEqual(week.map((w) => w.draftId));

    const shown = await planRequests(await db(), u.id, planId);
    expect(shown.map((r) => r.body)).toEqual(week.map((_, i) => `Day ${i + 1} of the plan\nWhat we learned on day ${i + 1}.`));
    const [keep, drop] = [shown.slice(0, 5), shown.slice(5)];
    expect(
      await press(
        u,
        planId,
        pageForm(
          u.id,
          planId,
          shown,
          keep.map((r) => r.id),
          "approve",
        ),
      ),
    ).toEqual({ approved: 5, declined: 2, unchanged: 0 });
    expect(Object.values(await statuses(shown.map((r) => r.id))).sort()).toEqual([
      "approved",
      "approved",
      "approved",
      "approved",
      "approved",
      "denied",
      "denied",
    ]);

    // The app repeats each call: exactly the five approved are scheduled.
    const repeated: Awaited<ReturnType<typeof call>>[] = [];
    for (const w of week) repeated.push(await call("schedule_content", { ...w.args, plan: PLAN }, { token: u.token }));
    expect(repeated.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 403, 403]);
    for (const [i, w] of week.entries()) expect((await row("post", w.draftId)).status).toBe(i < 5 ? "scheduled" : "draft");
    // A declined action stays declined: the repeat is a new request (in the same plan), not a schedule.
    for (const r of repeated.slice(5)) {
      expect(r.body.error.code).toBe("confirmation_required");
      expect(r.body.error.confirmation.plan.id).toBe(planId);
    }
    expect(Object.values(await statuses(drop.map((r) => r.id)))).toEqual(["denied", "denied"]);

    // Webhooks: each request (naming its plan) and each decision, as single approvals give them.
    const events = await (await db()).select().from(webhookEvents).where(eq(webhookEvents.userId, u.id));
    const requested = events.filter((e) => e.type === "approval.requested").map((e) => (e.payload as { data: { plan?: { id: string } } }).data);
    expect(requested.slice(0, 7).map((d) => d.plan?.id)).toEqual(Array(7).fill(planId));
    const decided = events.filter((e) => e.type === "approval.decided").map((e) => (e.payload as { data: { decision: string } }).data.decision);
    expect(decided.sort()).toEqual(["approved", "approved", "approved", "approved", "approved", "denied", "denied"]);
  });

  it("an app's edit of one approved draft voids that approval only: it asks again, the others schedule", async () => {
    const u = await makeUser({ publishing: true });
    const { week, planId, shown } = await proposedPlan(u, 4);
    expect(await press(u, planId, allTicked(u, planId, shown, "approve"))).toEqual({ approved: 4, declined: 0, unchanged: 0 });
    // After the review, the app changes the second draft.
    expect((await call("update_draft", { type: "post", id: week[1].draftId, body: "Day 2, rewritten after the review" }, { token: u.token })).status).toBe(200);
    const again: Awaited<ReturnType<typeof call>>[] = [];
    for (const w of week) again.push(await call("schedule_content", { ...w.args, plan: PLAN }, { token: u.token }));
    expect(again.map((r) => r.status)).toEqual([200, 403, 200, 200]);
    expect(again[1].body.error.code).toBe("confirmation_required");
    // The new request shows the new text, in the same plan's review.
    const now = await planRequests(await db(), u.id, planId);
    expect(now.find((r) => r.id === again[1].body.error.confirmation.id)?.body).toBe("Day 2, rewritten after the review");
    expect((await row("post", week[1].draftId)).status).toBe("draft");
    for (const i of [0, 2, 3]) expect((await row("post", week[i].draftId)).status).toBe("scheduled");
  });

  it("Decline all declines every action shown; nothing is scheduled", async () => {
    const u = await makeUser({ publishing: true });
    const { week, planId, shown } = await proposedPlan(u, 3);
    // The boxes are ticked by default; Decline all ignores them.
    expect(await press(u, planId, allTicked(u, planId, shown, "decline"))).toEqual({ approved: 0, declined: 3, unchanged: 0 });
    for (const w of week) expect((await call("schedule_content", w.args, { token: u.token })).status).toBe(403);
    for (const w of week) expect((await row("post", w.draftId)).status).toBe("draft");
  });

  it("a forged decision changes nothing: no CSRF proof, another owner's plan, a hash the page did not show, a request of another plan", async () => {
    const u = await makeUser({ publishing: true });
    const { week, planId, shown } = await proposedPlan(u, 3);
    const all = shown.map((r) => r.id);
    const before = await statuses(all);

    // No CSRF token, or one issued for another plan or to another owner: no door at all.
    expect(await formDoor(u.id, pageForm(u.id, planId, shown, all, "approve", false), planPurpose(planId))).toBeNull();
    expect(await formDoor(u.id, pageForm(u.id, randomUUID(), shown, all, "approve"), planPurpose(planId))).toBeNull();
    const stranger = await makeUser({ publishing: true });
    expect(await formDoor(u.id, pageForm(stranger.id, planId, shown, all, "approve"), planPurpose(planId))).toBeNull();
    // Another owner, with their own valid token, posting this owner's requests: not theirs.
    expect(await press(stranger, planId, pageForm(stranger.id, planId, shown, all, "approve"))).toEqual({ approved: 0, declined: 0, unchanged: 3 });
    // A hash the page did not show (another request's, or made up): that request is not decided.
    const wrong = shown.map((r, i) => ({ ...r, contentHash: i === 0 ? shown[1].contentHash : "0".repeat(64) }));
    expect(await press(u, planId, pageForm(u.id, planId, wrong, all, "approve"))).toEqual({ approved: 0, declined: 0, unchanged: 3 });
    // An item without its hash is not shown at all.
    const bare = pageForm(u.id, planId, [], all, "approve");
    for (const id of all) bare.append("item", id);
    expect(await press(u, planId, bare)).toEqual({ approved: 0, declined: 0, unchanged: 0 });
    // A request of another plan posted to this plan's form.
    const other = await draft(u, "post", "Not in this plan");
    const outside = await call(
      "schedule_content",
      { type: "post", id: other.id, scheduled_for: inSeconds(3600).toISOString(), plan: "Another plan" },
      { token: u.token },
    );
    const otherPlan = outside.body.error.confirmation.plan.id as string;
    expect(otherPlan).not.toBe(planId);
    const foreignItem = await planRequests(await db(), u.id, otherPlan);
    expect(await press(u, planId, pageForm(u.id, planId, foreignItem, [foreignItem[0].id], "approve"))).toEqual({ approved: 0, declined: 0, unchanged: 1 });

    expect(await statuses([...all, foreignItem[0].id])).toEqual({ ...before, [foreignItem[0].id]: "pending" });
    for (const w of week) expect((await call("schedule_content", w.args, { token: u.token })).status).toBe(403);
  });

  it("joins calls of one app within the window only: another app, another label or a later call starts another plan", async () => {
    const u = await makeUser({ publishing: true });
    const ask = async (token: string, plan?: string) => {
      const d = await draft(u, "post", `Asked ${Math.random()}`);
      const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(7200).toISOString(), ...(plan && { plan }) }, { token });
      return res.body.error.confirmation;
    };
    const first = await ask(u.token, PLAN);
    expect((await ask(u.token, PLAN)).plan.id).toBe(first.plan.id);
    expect((await ask(u.token, "week 47")).plan.id).not.toBe(first.plan.id);
    expect((await ask(u.token)).plan).toBeUndefined();
    // The same owner's other app: its own plan under the same label.
    const t = await issueCommandLineToken(await db(), { email: u.email, audience: [config().baseUrl, config().mcpUrl], appName: "Another app" });
    expect((await ask(t.access_token, PLAN)).plan.id).not.toBe(first.plan.id);
    // 31 minutes after the plan's first call, the label starts a new plan.
    const real = ports().clock;
    try {
      replacePorts({ clock: () => new Date(real().getTime() + 31 * 60_000) });
      expect((await ask(u.token, PLAN)).plan.id).not.toBe(first.plan.id);
    } finally {
      replacePorts();
    }
  });

  it("a plan's waiting requests expire together, ten minutes after its latest call", async () => {
    const u = await makeUser({ publishing: true });
    const ask = async () => {
      const d = await draft(u, "post", `Asked ${Math.random()}`);
      const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(7200).toISOString(), plan: PLAN }, { token: u.token });
      return res.body.error.confirmation as { id: string; plan: { id: string } };
    };
    const first = await ask();
    const expiry = async (id: string) => (await (await db()).select({ at: approvals.expiresAt }).from(approvals).where(eq(approvals.id, id)))[0].at;
    const real = ports().clock;
    try {
      // Eight minutes later the app adds a call: the first request now lapses with it.
      replacePorts({ clock: () => new Date(real().getTime() + 8 * 60_000) });
      const second = await ask();
      expect(second.plan.id).toBe(first.plan.id);
      expect((await expiry(first.id)).getTime()).toBe((await expiry(second.id)).getTime());
      // Twelve minutes after the first call it is still in the review, waiting.
      replacePorts({ clock: () => new Date(real().getTime() + 12 * 60_000) });
      const waitingIds = (await planRequests(await db(), u.id, first.plan.id)).filter((r) => waiting(r, ports().clock())).map((r) => r.id);
      expect(waitingIds.sort()).toEqual([first.id, second.id].sort());
    } finally {
      replacePorts();
    }
  });

  it("calls made at once under one label agree on one plan", async () => {
    const u = await makeUser({ publishing: true });
    const drafts = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => draft(u, "post", `At once ${i}`)));
    const answers = await Promise.all(
      drafts.map((d) => call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(7200).toISOString(), plan: PLAN }, { token: u.token })),
    );
    expect(
      answers.map((a) => a.body.error?.code),
      JSON.stringify(answers.map((a) => a.body)),
    ).toEqual(Array(6).fill("confirmation_required"));
    expect(new Set(answers.map((a) => a.body.error.confirmation.plan.id)).size).toBe(1);
  });

  it("refuses a bad plan label with the error shape, and stores nothing", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    for (const plan of ["", " Week 47", "Week 47 ", "x".repeat(81), "Week\n47", "Week\u200b47", 47]) {
      const res = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(3600).toISOString(), plan }, { token: u.token });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.map((x: { path: string }) => x.path)).toEqual(["plan"]);
    }
    for (const op of ["publish_now", "delete_draft"])
      expectError(await call(op, { type: "post", id: d.id, plan: "x".repeat(81) }, { token: u.token }), 400, "invalid_request");
    // A label of 80 is fine, on every one of the three.
    for (const op of ["publish_now", "delete_draft"])
      expectError(await call(op, { type: "post", id: d.id, plan: "x".repeat(80) }, { token: u.token }), 403, "confirmation_required");
    const rows = await (
      await db()
    )
      .select()
      .from(approvals)
      .where(and(eq(approvals.userId, u.id)));
    expect(rows.map((r) => r.action.plan?.label)).toEqual(["x".repeat(80), "x".repeat(80)]);
    // No other operation takes a plan.
    expectError(await call("unschedule_content", { type: "post", id: d.id, plan: PLAN }, { token: u.token }), 400, "invalid_request");
  });

  it("over MCP (2026-07-28) the elicitation opens the plan's review, and the retry completes once the review approved it", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "Planned over MCP");
    const args = { type: "post", id: d.id, scheduled_for: inSeconds(7200).toISOString(), plan: PLAN };
    const tool = (extra: Record<string, unknown> = {}) =>
      rpc2026({
        token: u.token,
        method: "tools/call",
        name: "schedule_content",
        params: { name: "schedule_content", arguments: args, ...extra },
        capabilities: { elicitation: { url: {} } },
      });
    const first = await tool();
    expect(first.result?.resultType, JSON.stringify(first)).toBe("input_required");
    const url = first.result!.inputRequests.approval.params.url as string;
    expect(url).toMatch(new RegExp(`^${config().origin}/approvals/plan/[0-9a-f-]{36}$`));
    expect(first.result!.inputRequests.approval.params.message).toContain(`plan "${PLAN}"`);
    const planId = url.split("/").pop()!;
    const shown = await planRequests(await db(), u.id, planId);
    expect(await press(u, planId, pageForm(u.id, planId, shown, [shown[0].id], "approve"))).toEqual({ approved: 1, declined: 0, unchanged: 0 });
    const done = await tool({ inputResponses: { approval: { action: "accept" } }, requestState: first.result!.requestState });
    expect(done.result?.structuredContent?.status, JSON.stringify(done)).toBe("scheduled");
  });
});
