import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/drizzle/schema";
import type { EventData, EventType } from "./events";

// The outbox. An event is written with the change it reports, on the same transaction handle,
// and fanned out at once to the endpoints subscribed to it: if the change commits, its
// deliveries exist; if it rolls back, nothing was ever announced. A user without a matching
// endpoint costs one indexed read and writes nothing.

export type Emitted<T extends EventType = EventType> = {
  userId: string;
  type: T;
  /** Events with one subject (a draft: "post:<id>") reach each endpoint in the order written. */
  subject: string | null;
  data: EventData<T>;
};

/**
 * Writes events and their deliveries. `only` sends to that endpoint whatever it subscribed to
 * (webhook.test). Returns the ids of the events written (those with at least one endpoint).
 */
export async function emitMany(tx: Db, events: Emitted[], opts: { now?: Date; only?: string } = {}): Promise<string[]> {
  if (!events.length) return [];
  const users = [...new Set(events.map((e) => e.userId))];
  // KEY SHARE: an endpoint deleted meanwhile waits for this transaction instead of making
  // its delivery rows fail their foreign key (which would undo the change being reported).
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, userId: webhookEndpoints.userId, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(
      and(
        users.length === 1 ? eq(webhookEndpoints.userId, users[0]) : inArray(webhookEndpoints.userId, users),
        opts.only ? eq(webhookEndpoints.id, opts.only) : eq(webhookEndpoints.status, "active"),
      ),
    )
    .for("key share");
  if (!endpoints.length) return [];
  const timestamp = (opts.now ?? new Date()).toISOString();
  const wanted = events
    .map((e) => ({ e, to: endpoints.filter((w) => w.userId === e.userId && (opts.only || w.events.includes(e.type))) }))
    .filter((x) => x.to.length);
  if (!wanted.length) return [];
  const ids: string[] = [];
  // In chunks: a scheduler pass may report hundreds of outcomes at once.
  for (let i = 0; i < wanted.length; i += 500) {
    const chunk = wanted.slice(i, i + 500);
    const rows = await tx
      .insert(webhookEvents)
      .values(
        chunk.map(({ e }) => ({
          userId: e.userId,
          type: e.type,
          subject: e.subject,
          payload: { type: e.type, timestamp, data: e.data as Record<string, unknown> },
          // The moment of writing, not of the transaction's start: a later change of the same
          // draft (which waited for this one's row lock) always sorts after it.
          createdAt: sql`clock_timestamp()`,
        })),
      )
      .returning({ id: webhookEvents.id });
    const deliveries = chunk.flatMap(({ to }, j) => to.map((w) => ({ eventId: rows[j].id, endpointId: w.id })));
    for (let k = 0; k < deliveries.length; k += 1000) await tx.insert(webhookDeliveries).values(deliveries.slice(k, k + 1000));
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

export const emit = <T extends EventType>(tx: Db, e: Emitted<T>, opts?: { now?: Date; only?: string }) => emitMany(tx, [e as Emitted], opts);
