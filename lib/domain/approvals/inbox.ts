import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { approvals, connectedApps, oauthClients } from "@/drizzle/schema";
import { approvalShown, askingApp, waitingRequests, withAppFrom } from "../accounts/connections";

/**
 * The approvals inbox: the owner's requests still waiting for a decision, soonest to expire
 * first, each with the content it would act on and the asking app (pendingApprovals, with the
 * content). Scoped by the owner's id; deciding stays on each request's own page (/confirm/{id}),
 * or a plan's review for requests an app labelled as one plan (plans.ts, groupInbox).
 */
export async function approvalInbox(db: Db, userId: string, now = new Date()) {
  const rows = await db
    .select({ ...approvalShown, expiresAt: approvals.expiresAt, createdAt: approvals.createdAt, ...askingApp })
    .from(approvals)
    .innerJoin(connectedApps, eq(connectedApps.id, approvals.appId))
    .innerJoin(oauthClients, eq(oauthClients.id, connectedApps.clientId))
    .where(waitingRequests(userId, now))
    .orderBy(asc(approvals.expiresAt));
  return rows.map(withAppFrom);
}

/** How many requests the inbox lists (for the banner on every page). */
export async function inboxCount(db: Db, userId: string, now = new Date()): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(approvals)
    .innerJoin(connectedApps, eq(connectedApps.id, approvals.appId))
    .where(waitingRequests(userId, now));
  return n;
}

export type InboxEntry = Awaited<ReturnType<typeof approvalInbox>>[number];
