import { db } from "@/lib/adapters/db";
import { publishDueDraft } from "@/lib/domain/publishing/publish";
import { ports } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import { announceConnections } from "@/lib/domain/webhooks/connection-events";
import { deliverDue, pruneOld } from "@/lib/adapters/webhooks/deliver";
import { collectDue } from "@/lib/domain/metrics/collect";
import { checkReceipts } from "@/lib/domain/publishing/receipts";
import { EVENTS, inngest, ScheduledData } from "./client";

// Thin jobs: the same domain functions as the in-process scheduler. Correctness does not
// depend on cancellation or on exactly-once delivery: the draft is claimed by one atomic
// UPDATE that only matches while it is still scheduled for that time.

const client = inngest();

export const publishScheduled = client.createFunction(
  {
    id: "publish-scheduled-draft",
    triggers: [{ event: EVENTS.scheduled }],
    // Unscheduling or moving cancels the sleeping run for that time; deleting cancels any.
    cancelOn: [
      { event: EVENTS.unscheduled, if: "async.data.id == event.data.id && async.data.scheduled_for == event.data.scheduled_for" },
      { event: EVENTS.deleted, match: "data.id" },
    ],
    // One user's posts go out one after another; other users are not held up.
    concurrency: [{ key: "event.data.userId", limit: 1 }],
  },
  async ({ event, step }) => {
    // Checked, not cast: a malformed event fails here instead of reaching the database.
    const data = ScheduledData.parse(event.data);
    await step.sleepUntil("wait-until-due", data.scheduled_for);
    return step.run("publish", async () => publishDueDraft(await db(), data.type, data.id, ports()));
  },
);

/** Anything overdue (a lost event, a retry after 429/5xx, a stuck or missed draft) each minute. */
export const sweepOverdue = client.createFunction(
  { id: "sweep-overdue-drafts", triggers: [{ cron: "* * * * *" }], concurrency: [{ limit: 1 }] },
  async ({ step }) => step.run("run-due", async () => runDue(await db())),
);

/**
 * Webhooks when Inngest is the engine (the in-process deliverer runs beside the in-process
 * scheduler otherwise): each minute, connection events, then every due delivery. The outbox
 * and the delivery leases live in the database, so a run cut short loses nothing.
 */
export const deliverWebhooks = client.createFunction(
  { id: "deliver-webhooks", triggers: [{ cron: "* * * * *" }], concurrency: [{ limit: 1 }] },
  async ({ step }) => {
    await step.run("connection-events", async () => announceConnections(await db(), new Date()));
    await step.run("prune", async () => pruneOld(await db(), new Date()));
    return step.run("deliver", async () => deliverDue(await db()));
  },
);

/**
 * Posts' engagement and receipts when Inngest is the engine: the reads that have come due, each
 * minute (lib/domain/metrics, lib/domain/publishing/receipts.ts).
 */
export const collectMetrics = client.createFunction(
  { id: "collect-post-metrics", triggers: [{ cron: "* * * * *" }], concurrency: [{ limit: 1 }] },
  async ({ step }) => {
    await step.run("receipts", async () => checkReceipts(await db(), ports()));
    return step.run("collect", async () => collectDue(await db(), ports()));
  },
);

export const functions = [publishScheduled, sweepOverdue, deliverWebhooks, collectMetrics];
