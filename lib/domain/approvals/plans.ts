import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { approvals, connectedApps, type ApprovalPlan } from "@/drizzle/schema";
import { isUuid } from "@/lib/core/ids";
import type { Ctx } from "../context";
import { requestsOfOwner, withAppFrom } from "../accounts/connections";
import type { InboxEntry } from "./inbox";

// A plan in one review (docs/decisions.md, "A plan in one review"): an app labels several
// confirmed actions with one `plan`; each is still its own exact-action approval, bound to its
// content, but the owner reviews them together on /approvals/plan/{id}.

/** Calls with the same label from one app join a plan within this long of its first call. */
export const PLAN_WINDOW_MINUTES = 30;
const WINDOW_MS = PLAN_WINDOW_MINUTES * 60 * 1000;

const label = sql<string | null>`${approvals.action}->'plan'->>'label'`;
const started = sql<string | null>`${approvals.action}->'plan'->>'started'`;
const planId = sql<string | null>`${approvals.action}->'plan'->>'id'`;

/** The review's address, as the app is told it and the inbox links to it. */
export const planUrl = (origin: string, id: string) => `${origin}/approvals/plan/${id}`;

/**
 * The plan a call labelled `name` joins: the one its app started under that label less than
 * PLAN_WINDOW_MINUTES ago, or a new one. Call inside the transaction that stores the approval:
 * the app's row is locked first, so calls made at once with one label agree on one plan.
 */
export async function planFor(tx: Db, ctx: Ctx, name: string): Promise<ApprovalPlan> {
  await tx.select({ id: connectedApps.id }).from(connectedApps).where(eq(connectedApps.id, ctx.caller.appId)).for("no key update");
  const now = ctx.now();
  // ISO strings in UTC compare as the times they name.
  const cutoff = new Date(now.getTime() - WINDOW_MS).toISOString();
  const [open] = await tx
    .select({ plan: sql<ApprovalPlan>`${approvals.action}->'plan'` })
    .from(approvals)
    .where(and(eq(approvals.userId, ctx.caller.userId), eq(approvals.appId, ctx.caller.appId), sql`${label} = ${name}`, sql`${started} > ${cutoff}`))
    .orderBy(desc(approvals.createdAt))
    .limit(1);
  return open?.plan ?? { id: randomUUID(), label: name, started: now.toISOString() };
}

/**
 * A plan's requests still waiting expire together, when its latest (`until`): the owner reviews
 * them at once, so none lapses while the app is still adding to the plan. One already expired
 * stays so. Call in the transaction that stores the plan's latest request.
 */
export async function keepPlanOpen(tx: Db, ctx: Ctx, id: string, until: Date) {
  await tx
    .update(approvals)
    .set({ expiresAt: until })
    .where(and(eq(approvals.userId, ctx.caller.userId), sql`${planId} = ${id}`, eq(approvals.status, "pending"), gt(approvals.expiresAt, ctx.now())));
}

/**
 * Every request of one plan of the owner's, in the order the app asked, with the content each
 * acts on and the asking app; empty when the id is not a plan of theirs.
 */
export async function planRequests(db: Db, userId: string, id: string) {
  if (!isUuid(id)) return [];
  const rows = await requestsOfOwner(db)
    .where(and(eq(approvals.userId, userId), sql`${planId} = ${id.toLowerCase()}`))
    .orderBy(asc(approvals.createdAt), asc(approvals.id));
  return rows.map(withAppFrom);
}

export type PlanRequest = Awaited<ReturnType<typeof planRequests>>[number];

/** Still waiting for the owner's decision: pending, unexpired, its app still connected. */
export const waiting = (r: Pick<PlanRequest, "status" | "expiresAt" | "appRevoked">, now: Date) => r.status === "pending" && r.expiresAt > now && !r.appRevoked;

/** A plan of the inbox: its waiting requests, in the order they were asked. */
export type InboxPlan = { id: string; label: string; appName: string; requests: InboxEntry[] };

/**
 * The inbox grouped: each plan's waiting requests together (by app, then its first request),
 * and the requests without a plan by app, in the order they were asked.
 */
export function groupInbox(inbox: InboxEntry[]): { plans: InboxPlan[]; singles: InboxEntry[] } {
  const byAsked = [...inbox].sort((a, b) => a.appName.localeCompare(b.appName) || a.createdAt.getTime() - b.createdAt.getTime());
  const plans = new Map<string, InboxPlan>();
  const singles: InboxEntry[] = [];
  for (const r of byAsked) {
    const p = r.action.plan;
    if (!p) singles.push(r);
    else if (plans.has(p.id)) plans.get(p.id)!.requests.push(r);
    else plans.set(p.id, { id: p.id, label: p.label, appName: r.appName, requests: [r] });
  }
  return { plans: [...plans.values()], singles };
}
