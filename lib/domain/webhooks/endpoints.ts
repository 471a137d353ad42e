import { and, count, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import type { Ctx } from "@/lib/domain/context";
import { decodeCursor, encodeCursor, timeOf } from "@/lib/domain/cursor";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/drizzle/schema";
import { isUuid } from "@/lib/core/ids";
import { checkWebhookUrl } from "./address";
import { emit } from "./emit";
import type { SubscribableEvent } from "./events";
import { newSecret } from "./signing";
import { DISCONNECTED_APP_ENDPOINT } from "@/lib/domain/apps/tokens";

// The owner's (and apps') webhook endpoints. Every query is scoped to the caller: another
// user's endpoint answers exactly like a missing one. The secret leaves only in the answer to
// create and rotate_secret.

export const MAX_ENDPOINTS = 20;
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

type Endpoint = typeof webhookEndpoints.$inferSelect;

export const webhookView = (e: Endpoint) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  description: e.description,
  status: e.status,
  created_at: e.createdAt.toISOString(),
  last_delivery_at: e.lastDeliveryAt?.toISOString() ?? null,
});

const missing = () =>
  new AppError("action_failed", "No webhook endpoint with that id exists in your account.", "list_webhooks lists your endpoints with their ids.");

const uniq = (events: SubscribableEvent[]) => [...new Set(events)];

export async function listWebhooks(ctx: Ctx, input: { limit: number; cursor?: string }) {
  const userId = ctx.caller.userId;
  // Keyset on (created_at, id), newest first.
  const after = input.cursor
    ? decodeCursor(input.cursor, "webhooks", (c) => (timeOf(c.t) && typeof c.i === "string" && isUuid(c.i) ? { t: c.t as string, i: c.i } : undefined))
    : undefined;
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.userId, userId),
        after
          ? or(lt(webhookEndpoints.createdAt, new Date(after.t)), and(eq(webhookEndpoints.createdAt, new Date(after.t)), lt(webhookEndpoints.id, after.i)))
          : undefined,
      ),
    )
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    webhooks: page.map(webhookView),
    next_cursor: rows.length > input.limit && last ? encodeCursor("webhooks", { t: last.createdAt.toISOString(), i: last.id }) : null,
  };
}

/** One of the caller's endpoints, locked for the rest of the transaction, or the missing-id error. */
async function own(tx: Db, userId: string, id: string): Promise<Endpoint> {
  if (!isUuid(id)) throw missing();
  const [row] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .for("update");
  if (!row) throw missing();
  return row;
}

export type ManageWebhooksInput =
  | { action: "create"; url: string; events: SubscribableEvent[]; description?: string }
  | { action: "update"; webhook_id: string; url?: string; events?: SubscribableEvent[]; description?: string | null; paused?: boolean }
  | { action: "delete" | "rotate_secret" | "test"; webhook_id: string };

export async function manageWebhooks(ctx: Ctx, input: ManageWebhooksInput): Promise<{ webhook: ReturnType<typeof webhookView>; secret: string | null }> {
  const userId = ctx.caller.userId;
  const origin = ctx.ports.config().origin;
  const now = ctx.now();
  if (input.action === "create") {
    const url = checkWebhookUrl(input.url, origin).toString();
    return ctx.db.transaction(async (tx) => {
      // Serialises creations of one user so the limit holds under concurrent calls.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${userId}`}))`);
      const [{ n }] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
      if (n >= MAX_ENDPOINTS) {
        throw new AppError("action_failed", `An account can have at most ${MAX_ENDPOINTS} webhook endpoints.`, "Delete one you no longer use, then try again.");
      }
      const secret = newSecret();
      const [row] = await tx
        .insert(webhookEndpoints)
        .values({
          userId,
          appId: ctx.caller.inPerson ? null : ctx.caller.appId,
          url,
          events: uniq(input.events),
          description: input.description || null,
          secret,
        })
        .returning();
      return { webhook: webhookView(row), secret };
    });
  }
  // The app that last chose where an endpoint's events go, or holds its only current secret,
  // answers for it: its disconnect pauses the endpoint (revokeApp). The owner setting the
  // address in person makes it the owner's again.
  const answerable = ctx.caller.inPerson ? null : ctx.caller.appId;
  return ctx.db.transaction(async (tx) => {
    const e = await own(tx, userId, input.webhook_id);
    const where = eq(webhookEndpoints.id, e.id);
    switch (input.action) {
      case "update": {
        const set: Partial<typeof webhookEndpoints.$inferInsert> = { updatedAt: now };
        if (input.url !== undefined) {
          set.url = checkWebhookUrl(input.url, origin).toString();
          // The same address sent back (Settings' form sends it with any edit) is no new choice.
          if (set.url !== e.url) set.appId = answerable;
        }
        // Paused because the app that pointed it was disconnected: another app may not send
        // the events back there; it may point the endpoint at a receiver of its own.
        if (input.paused === false && input.url === undefined && e.pausedReason === DISCONNECTED_APP_ENDPOINT && !ctx.caller.inPerson) {
          throw new AppError(
            "action_failed",
            "This webhook endpoint was paused because the app that set its address was disconnected; an app cannot resume it.",
            "The owner can resume it in Settings > Webhooks, or give it a new url in the same update.",
          );
        }
        if (input.events !== undefined) set.events = uniq(input.events);
        if (input.description !== undefined) set.description = input.description || null;
        // Resuming starts afresh: the 3-day failure clock restarts with the next failure.
        if (input.paused !== undefined) Object.assign(set, { status: input.paused ? "paused" : "active", pausedReason: null, failingSince: null });
        const [row] = await tx.update(webhookEndpoints).set(set).where(where).returning();
        return { webhook: webhookView(row), secret: null };
      }
      case "delete":
        await tx.delete(webhookEndpoints).where(where);
        return { webhook: webhookView(e), secret: null };
      case "rotate_secret": {
        const secret = newSecret();
        const [row] = await tx
          .update(webhookEndpoints)
          .set({
            secret,
            previousSecret: e.secret,
            previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
            updatedAt: now,
            ...(answerable && { appId: answerable }),
          })
          .where(where)
          .returning();
        return { webhook: webhookView(row), secret };
      }
      case "test": {
        if (e.status !== "active") {
          throw new AppError(
            "action_failed",
            "This webhook endpoint is paused, so nothing is sent to it.",
            "Resume it (update with paused false), then test again.",
          );
        }
        const message = "A test event from Contentio: your endpoint is reachable and verifies signatures.";
        await emit(tx, { userId, type: "webhook.test", subject: null, data: { webhook_id: e.id, message } }, { now, only: e.id });
        return { webhook: webhookView(e), secret: null };
      }
    }
  });
}

export type DeliveryRow = {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastAttemptAt: Date | null;
  lastResponseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
};

/** The delivery log of one of the user's endpoints, newest first (empty when it is not theirs). */
export async function deliveryLog(db: Db, userId: string, endpointId: string, limit = 50): Promise<DeliveryRow[]> {
  return db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookEvents.id,
      eventType: webhookEvents.type,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      lastResponseCode: webhookDeliveries.lastResponseCode,
      lastError: webhookDeliveries.lastError,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, endpointId)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/**
 * "Resend": the same event (same webhook-id, so a receiver that has it can ignore it) goes
 * out once more, now. Only the user's own deliveries; false when there is none.
 */
export async function resendDelivery(db: Db, userId: string, deliveryId: string, now = new Date()): Promise<boolean> {
  if (!isUuid(deliveryId)) return false;
  const rows = await db
    .update(webhookDeliveries)
    // A send in flight (locked) finishes first and its outcome stands; otherwise it goes now.
    .set({ status: "pending", nextAttemptAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        sql`${webhookDeliveries.endpointId} in (select ${webhookEndpoints.id} from ${webhookEndpoints} where ${webhookEndpoints.userId} = ${userId})`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** The user's endpoints for the Settings page (with why a paused one was paused), never their secrets. */
export async function endpointsOf(db: Db, userId: string) {
  const e = webhookEndpoints;
  return db
    .select({
      id: e.id,
      url: e.url,
      events: e.events,
      description: e.description,
      status: e.status,
      pausedReason: e.pausedReason,
      failingSince: e.failingSince,
      lastDeliveryAt: e.lastDeliveryAt,
      previousSecretExpiresAt: e.previousSecretExpiresAt,
      createdAt: e.createdAt,
    })
    .from(e)
    .where(eq(e.userId, userId))
    .orderBy(desc(e.createdAt));
}
