import { randomBytes } from "node:crypto";
import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { approvals, connectedApps, elicitations, type ElicitationMode, type ElicitationStatus } from "@/drizzle/schema";
import { isUuid } from "@/lib/core/ids";
import { decideApproval } from "./approvals";
import type { Caller } from "../context";
import { sha256 } from "../hash";

// Elicitations the MCP server sent about an approval (docs/interface.md, Confirmation, point 4). A client's
// answer counts only as the answer to one of these: named by its id, carrying its secret,
// from the same user, app and MCP session, once, before it expires. Even then a form answer
// approves only for an app the owner trusted; a URL-mode answer never approves (the owner
// decides on the approval page), it can only end the wait.

/** Calls waiting for a decision at once, per user: each holds a request and polls. */
export const MAX_WAITING_PER_USER = 3;

export type OpenedElicitation = { id: string; secret: string };

/** Whether the owner lets this app confirm actions in its own window (a form). */
export async function appTrustsForms(db: Db, caller: Caller): Promise<boolean> {
  const [row] = await db
    .select({ trusted: connectedApps.trustsForms })
    .from(connectedApps)
    .where(and(eq(connectedApps.id, caller.appId), eq(connectedApps.userId, caller.userId)));
  return row?.trusted === true;
}

const LIVE = ["open", "answered"] as const;

/**
 * Opens a wait for the owner's answer, or null when MAX_WAITING_PER_USER calls of this user
 * already wait (then the call does not wait). Counted and inserted under one lock per user:
 * calls that arrive together (a batch) cannot all pass the count.
 */
export async function openElicitation(
  db: Db,
  e: { approvalId: string; caller: Caller; session: string; toolRequestId: string | number; mode: ElicitationMode; expiresAt: Date },
  now = new Date(),
): Promise<OpenedElicitation | null> {
  const secret = randomBytes(24).toString("base64url");
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`elicitations:${e.caller.userId}`}))`);
    const [waiting] = await tx
      .select({ n: count() })
      .from(elicitations)
      .where(and(eq(elicitations.userId, e.caller.userId), inArray(elicitations.status, [...LIVE]), gt(elicitations.expiresAt, now)));
    if (Number(waiting?.n ?? 0) >= MAX_WAITING_PER_USER) return null;
    const [row] = await tx
      .insert(elicitations)
      .values({
        approvalId: e.approvalId,
        userId: e.caller.userId,
        appId: e.caller.appId,
        session: e.session,
        toolRequestId: e.toolRequestId,
        mode: e.mode,
        secretHash: sha256(secret),
        expiresAt: e.expiresAt,
      })
      .returning({ id: elicitations.id });
    return { id: row.id, secret };
  });
}

export type ElicitationAnswer = { action?: unknown; content?: Record<string, unknown> };

/**
 * Takes a client's answer to elicitation `id`. Returns false (and changes nothing) unless it
 * answers an open elicitation this server sent to this caller's session with this secret.
 */
export async function answerElicitation(
  db: Db,
  caller: Caller,
  session: string,
  ref: { id: string; secret: string },
  answer: ElicitationAnswer,
  now = new Date(),
): Promise<boolean> {
  if (!isUuid(ref.id)) return false;
  // Single use: one conditional UPDATE takes it.
  const [taken] = await db
    .update(elicitations)
    .set({ status: "answered", answeredAt: now })
    .where(
      and(
        eq(elicitations.id, ref.id),
        eq(elicitations.userId, caller.userId),
        eq(elicitations.appId, caller.appId),
        eq(elicitations.session, session),
        eq(elicitations.secretHash, sha256(ref.secret)),
        eq(elicitations.status, "open"),
        gt(elicitations.expiresAt, now),
      ),
    )
    .returning({ approvalId: elicitations.approvalId, mode: elicitations.mode });
  if (!taken) return false;
  if (taken.mode === "url") {
    // The person would not open the page: the wait ends; the approval stays open on the page.
    if (answer.action === "decline" || answer.action === "cancel") await setStatus(db, ref.id, "cancelled");
    return true;
  }
  const accepted = answer.action === "accept" && answer.content?.confirm === true;
  // The owner may have withdrawn the trust since the form was sent: checked again now.
  const approve = accepted && (await appTrustsForms(db, caller));
  await decideApproval(db, caller.userId, taken.approvalId, approve ? "approved" : "denied", now);
  return true;
}

/** notifications/cancelled for a waiting tool call of this session ends its wait. */
export async function cancelWaiting(db: Db, caller: Caller, session: string, toolRequestId: string | number): Promise<void> {
  await db
    .update(elicitations)
    .set({ status: "cancelled" })
    .where(
      and(
        eq(elicitations.userId, caller.userId),
        eq(elicitations.appId, caller.appId),
        eq(elicitations.session, session),
        eq(elicitations.toolRequestId, toolRequestId),
        inArray(elicitations.status, [...LIVE]),
      ),
    );
}

export type WaitState = "approved" | "denied" | "cancelled" | "waiting";

/** Where a wait stands: the approval's decision, or the elicitation's cancellation. */
export async function waitState(db: Db, elicitationId: string): Promise<WaitState> {
  const [row] = await db
    .select({ approval: approvals.status, elicitation: elicitations.status })
    .from(elicitations)
    .innerJoin(approvals, eq(approvals.id, elicitations.approvalId))
    .where(eq(elicitations.id, elicitationId));
  if (!row) return "cancelled";
  if (row.approval === "approved" || row.approval === "used") return "approved";
  if (row.approval === "denied") return "denied";
  return row.elicitation === "cancelled" ? "cancelled" : "waiting";
}

async function setStatus(db: Db, id: string, status: ElicitationStatus) {
  await db
    .update(elicitations)
    .set({ status })
    .where(and(eq(elicitations.id, id), inArray(elicitations.status, [...LIVE])));
}

/** A finished wait no longer counts toward the user's bound, and can no longer be answered. */
export const closeElicitation = (db: Db, id: string) => setStatus(db, id, "closed");

/** What a form shows of an approval: the full text, the images, document, thread and an edit's proposal. */
export async function approvalToShow(db: Db, userId: string, id: string) {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select({ body: approvals.body, imageUrl: approvals.imageUrl, attachments: approvals.attachments, proposed: approvals.proposed })
    .from(approvals)
    .where(and(eq(approvals.id, id), eq(approvals.userId, userId)));
  return row;
}
