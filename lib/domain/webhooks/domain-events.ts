import type { Db } from "@/lib/adapters/db";
import type { Ctx } from "@/lib/domain/context";
import type { AttemptOutcome } from "@/lib/domain/publishing/outcomes";
import { platformOf } from "@/lib/domain/networks/platform";
import { emit, emitMany, type Emitted } from "./emit";
import type { Actor, EventData } from "./events";

// One-line calls for the domain: each writes the event of a change on the transaction that
// makes the change (see emit.ts), so the domain's files only gain a line each.

type DraftType = "post" | "tweet";
type DraftRow = { id: string; title: string; status: string; scheduledFor?: Date | null; updatedAt?: Date; accountId?: string | null };

const actorOf = (ctx: Ctx): Actor => (ctx.caller.inPerson ? { kind: "owner", app_name: null } : { kind: "app", app_name: ctx.caller.appName });
const ref = (type: DraftType, id: string, accountId: string | null | undefined) => ({ type, id, platform: platformOf(type), account_id: accountId ?? null });
const subject = (type: DraftType, id: string) => `${type}:${id}`;
const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** A change to one draft, by the caller, with the facts of its kind. */
const draftEvent = <T extends "draft.created" | "draft.updated" | "draft.deleted" | "draft.scheduled" | "draft.unscheduled">(
  tx: Db,
  ctx: Ctx,
  kind: T,
  type: DraftType,
  id: string,
  facts: Omit<EventData<T>, "type" | "id" | "platform" | "account_id" | "actor">,
  accountId: string | null | undefined,
) =>
  emit(
    tx,
    { userId: ctx.caller.userId, type: kind, subject: subject(type, id), data: { ...ref(type, id, accountId), ...facts, actor: actorOf(ctx) } as EventData<T> },
    { now: ctx.now() },
  );

export const draftCreated = (tx: Db, ctx: Ctx, type: DraftType, d: DraftRow) =>
  draftEvent(tx, ctx, "draft.created", type, d.id, { title: d.title, status: d.status }, d.accountId);

export const draftUpdated = (tx: Db, ctx: Ctx, type: DraftType, d: DraftRow) =>
  draftEvent(
    tx,
    ctx,
    "draft.updated",
    type,
    d.id,
    {
      title: d.title,
      status: d.status,
      scheduled_for: iso(d.scheduledFor),
      updated_at: (d.updatedAt ?? ctx.now()).toISOString(),
    },
    d.accountId,
  );

export const draftDeleted = (tx: Db, ctx: Ctx, type: DraftType, id: string, cancelledSchedule: boolean, accountId: string | null) =>
  draftEvent(tx, ctx, "draft.deleted", type, id, { cancelled_schedule: cancelledSchedule }, accountId);

export const draftScheduled = (tx: Db, ctx: Ctx, type: DraftType, d: DraftRow, previous: Date | null) =>
  draftEvent(
    tx,
    ctx,
    "draft.scheduled",
    type,
    d.id,
    { title: d.title, scheduled_for: iso(d.scheduledFor)!, previous_scheduled_for: iso(previous) },
    d.accountId,
  );

export const draftUnscheduled = (tx: Db, ctx: Ctx, type: DraftType, d: DraftRow, previous: Date | null) =>
  draftEvent(tx, ctx, "draft.unscheduled", type, d.id, { title: d.title, previous_scheduled_for: iso(previous) }, d.accountId);

/**
 * Publish outcomes, from the history writer of attempts (publish_now, both engines, the
 * sweeps and the owner settling an unknown one). Retries are not news: they are not sent.
 */
export function publishOutcomes(tx: Db, outcomes: AttemptOutcome[], now = new Date()) {
  const events: Emitted[] = [];
  for (const o of outcomes) {
    const base = { userId: o.userId, subject: subject(o.type, o.id) };
    const r = ref(o.type, o.id, o.accountId);
    if (o.status === "published") events.push({ ...base, type: "post.published", data: { ...r, url: o.url ?? null } });
    else if (o.status === "failed" || o.status === "unknown")
      events.push({ ...base, type: `post.${o.status}`, data: { ...r, reason: o.reason ?? "no reason recorded" } });
  }
  return emitMany(tx, events, { now });
}

/** A published post its network no longer has (a receipt found it gone), in the transaction that marks it removed. */
export const postRemoved = (
  tx: Db,
  d: { userId: string; type: DraftType; id: string; accountId: string | null; url: string | null; reason: string },
  now: Date,
) =>
  emit(
    tx,
    { userId: d.userId, type: "post.removed", subject: subject(d.type, d.id), data: { ...ref(d.type, d.id, d.accountId), url: d.url, reason: d.reason } },
    { now },
  );
