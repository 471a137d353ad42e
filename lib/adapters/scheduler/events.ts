import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { EVENTS, type DeletedData, type ScheduledData } from "@/lib/adapters/inngest/events";

// Tells the Inngest engine (when configured) about schedule changes. A lost event is
// harmless: the cron sweep publishes anything overdue, and the atomic claim ignores runs
// for a time the draft no longer has.

type Ref = { type: "post" | "tweet"; id: string; userId: string };

async function send(event: { name: string; id: string; data: ScheduledData | DeletedData }) {
  if (!config().inngest) return;
  try {
    const { inngest } = await import("@/lib/adapters/inngest/client");
    await inngest().send(event);
  } catch (e) {
    // The error may name the event URL, which holds the event key.
    log("warn", "inngest event not sent", { event: event.name, ...errorFacts(e) });
  }
}

/**
 * `version` (the draft's updated_at after the change) makes ids deterministic per schedule
 * action: a repeated send of one action starts one run, while scheduling the same time again
 * after unscheduling is a new event (Inngest drops a repeated id for 24 hours).
 */
export async function announceScheduled(d: Ref & { scheduledFor: Date; previous: Date | null; version: number }) {
  if (d.previous) await announceUnscheduled({ ...d, scheduledFor: d.previous });
  const at = d.scheduledFor.toISOString();
  await send({
    name: EVENTS.scheduled,
    id: `schedule:${d.type}:${d.id}:${at}:${d.version}`,
    data: { type: d.type, id: d.id, userId: d.userId, scheduled_for: at },
  });
}

export async function announceUnscheduled(d: Ref & { scheduledFor: Date; version: number }) {
  const at = d.scheduledFor.toISOString();
  await send({
    name: EVENTS.unscheduled,
    id: `unschedule:${d.type}:${d.id}:${at}:${d.version}`,
    data: { type: d.type, id: d.id, userId: d.userId, scheduled_for: at },
  });
}

export async function announceDeleted(d: Ref) {
  await send({ name: EVENTS.deleted, id: `delete:${d.type}:${d.id}`, data: { type: d.type, id: d.id, userId: d.userId } });
}
