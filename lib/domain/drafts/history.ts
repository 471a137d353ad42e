import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { approvals, connectedApps, draftEvents, oauthClients, postDrafts, tweetDrafts, type DraftEventKind } from "@/drizzle/schema";
import { errorFacts } from "@/lib/core/redact";
import { publishOutcomes } from "@/lib/domain/webhooks/domain-events";
import type { Ctx } from "../context";
import type { DraftType } from "@/lib/domain/networks";
import type { AttemptOutcome } from "../publishing/outcomes";
import { accountFor, accountLabel } from "../accounts/accounts";
import { networkOfDraft } from "@/lib/domain/networks";

export type { AttemptOutcome };
import { jsonText } from "@/drizzle/schema/columns";
import { dollars } from "@/lib/domain/networks/x/pricing";

// The story of each draft for its owner (item page, "last changed by" in the list). Written
// beside the actions, never inside them: a history that cannot be written must not undo or
// refuse the action it describes, so every writer here logs and carries on.

type Event = { userId: string; type: DraftType; id: string; kind: DraftEventKind; detail?: Record<string, string | null> };

const who = (ctx: Ctx) => (ctx.caller.inPerson ? { actor: "owner" as const, appName: null } : { actor: "app" as const, appName: ctx.caller.appName });

async function write(db: Db, rows: (Event & { actor: "app" | "owner" | "scheduler"; appName: string | null })[]) {
  if (!rows.length) return;
  try {
    // One statement with the rows as one JSON parameter: a scheduler pass records thousands
    // of outcomes, and building a 7-parameter-a-row insert cost more CPU than running it. In
    // a (nested) transaction: inside a caller's transaction it is a savepoint, so a failed
    // history write is rolled back alone and the caller's change still commits.
    const json = jsonText(
      rows.map((r) => ({ user_id: r.userId, draft_type: r.type, draft_id: r.id, kind: r.kind, actor: r.actor, app_name: r.appName, detail: r.detail ?? {} })),
    );
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into ${draftEvents} (user_id, draft_type, draft_id, kind, actor, app_name, detail)
        select user_id, draft_type, draft_id, kind, actor, app_name, detail
        from jsonb_to_recordset(${json}::jsonb) as r(user_id uuid, draft_type text, draft_id uuid, kind text, actor text, app_name text, detail jsonb)`);
    });
  } catch (e) {
    log("warn", "history", errorFacts(e));
  }
}

/** One event by the caller (an app or the owner in person). */
export const noteByCaller = (ctx: Ctx, e: Omit<Event, "userId">) => write(ctx.db, [{ ...e, userId: ctx.caller.userId, ...who(ctx) }]);

/** How the history names where a draft goes: its account, else the network's default (null: none). */
async function draftAccountLabel(db: Db, userId: string, type: DraftType, draftId: string): Promise<string | null> {
  const t = type === "post" ? postDrafts : tweetDrafts;
  const [d] = await db
    .select({ accountId: t.accountId })
    .from(t)
    .where(and(eq(t.id, draftId), eq(t.userId, userId)));
  const a = d && (await accountFor(db, userId, networkOfDraft(type).platform, d.accountId).catch(() => null));
  return a ? accountLabel(a) : null;
}

/** A schedule by the caller: when, and to which account. */
export const noteScheduled = async (ctx: Ctx, type: DraftType, id: string, scheduledFor: string | null) =>
  noteByCaller(ctx, {
    type,
    id,
    kind: "scheduled",
    detail: { scheduled_for: scheduledFor, account: await draftAccountLabel(ctx.db, ctx.caller.userId, type, id) },
  });

type R = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : null);

/** After a successful operation (REST or MCP): what it did to which draft. */
export async function noteOperation(ctx: Ctx, op: string, args: R, result: unknown) {
  const res = (result ?? {}) as R;
  const type = args.type as DraftType;
  const id = str(args.id);
  switch (op) {
    case "create_draft": {
      await noteByCaller(ctx, { type: res.type as DraftType, id: String(res.id), kind: "created" });
      if (res.linked_post_id) await noteByCaller(ctx, { type: "post", id: String(res.linked_post_id), kind: "created", detail: { for_tweet: String(res.id) } });
      return;
    }
    case "generate_post":
      if (res.draft_id) await noteByCaller(ctx, { type: "post", id: String(res.draft_id), kind: "created", detail: { generated: "yes" } });
      return;
    case "generate_tweet":
      if (res.draft_id) await noteByCaller(ctx, { type: "tweet", id: String(res.draft_id), kind: "created", detail: { generated: "yes" } });
      return;
    case "update_draft": {
      const fields = ["title", "body", "image_url", "image_urls", "document_url", "document_title", "thread", "first_comment", "hashtags", "pillar"]
        .filter((k) => args[k] !== undefined)
        .join(", ");
      if (id) await noteByCaller(ctx, { type, id, kind: "edited", detail: { fields } });
      return;
    }
    case "schedule_content":
      if (id) await noteScheduled(ctx, type, id, str(res.scheduled_for));
      return;
    case "unschedule_content":
      if (id && res.unscheduled)
        await noteByCaller(ctx, { type, id, kind: "unscheduled", detail: { previous_scheduled_for: str(res.previous_scheduled_for) } });
      return;
    case "delete_draft":
      if (id) await forget(ctx.db, ctx.caller.userId, id);
      return;
    // The owner's own pages (lib/operations/in-person).
    case "import_drafts":
    case "import_to_queue":
      for (const d of (res.drafts ?? []) as { type: DraftType; id: string; linked_post_id: string | null; scheduled_for: string | null }[]) {
        await noteByCaller(ctx, { type: d.type, id: d.id, kind: "created", detail: { imported: String(res.import_id) } });
        if (d.linked_post_id) await noteByCaller(ctx, { type: "post", id: d.linked_post_id, kind: "created", detail: { for_tweet: d.id } });
        if (d.scheduled_for) await noteScheduled(ctx, d.type, d.id, d.scheduled_for);
      }
      return;
    case "compose":
      for (const d of (res.saved ?? []) as { type: DraftType; id: string; scheduled_for?: string }[]) {
        await noteByCaller(ctx, { type: d.type, id: d.id, kind: "created" });
        if (d.scheduled_for) await noteScheduled(ctx, d.type, d.id, d.scheduled_for);
      }
      return;
    case "save_draft": {
      const draft = args.draft as { type: DraftType; id: string };
      const fields = (res.fields ?? []) as string[];
      if (res.saved && !args.alreadyNoted) await noteByCaller(ctx, { ...draft, kind: "edited", detail: { fields: fields.join(", ") } });
      if (res.scheduled_for) await noteScheduled(ctx, draft.type, draft.id, str(res.scheduled_for));
      if (res.previous_scheduled_for)
        await noteByCaller(ctx, { ...draft, kind: "unscheduled", detail: { previous_scheduled_for: str(res.previous_scheduled_for) } });
      return;
    }
    case "schedule_on_day":
    case "move_in_queue":
      if (id) await noteScheduled(ctx, type, id, str(res.scheduled_for));
      return;
  }
}

export async function noteAttempts(db: Db, outcomes: AttemptOutcome[]) {
  // Their webhook events, on the same handle: callers record outcomes in a transaction
  // (publishClaimed, the scheduler's flush and sweep), so the event commits with the outcome.
  await publishOutcomes(db, outcomes);
  await write(
    db,
    outcomes.map((o) => ({
      userId: o.userId,
      type: o.type,
      id: o.id,
      kind: o.status,
      actor: "scheduler" as const,
      appName: null,
      detail: {
        ...(o.status === "published" ? { url: o.url ?? null } : { reason: o.reason ?? null }),
        // What X charges for the posts this attempt sent, as estimated (lib/domain/networks/x/pricing.ts).
        ...(o.cost && { estimate: `about ${dollars(o.cost)} on X` }),
      } as Record<string, string | null>,
    })),
  );
}

/** A first comment's outcome: posted by the scheduler after its post, or by the owner trying again. */
export const noteComment = (
  db: Db,
  e: { userId: string; type: DraftType; id: string; status: "posted" | "failed" | "unknown"; url?: string | null; reason?: string },
  actor: "scheduler" | "owner",
) =>
  write(db, [
    {
      userId: e.userId,
      type: e.type,
      id: e.id,
      kind: `comment_${e.status}`,
      actor,
      appName: null,
      detail: e.status === "posted" ? { url: e.url ?? null } : { reason: e.reason ?? null },
    },
  ]);

/** A read of a published post back (a receipt) by the background engine: there, not known, or gone. */
export const noteReceipt = (db: Db, e: Event & { kind: "receipt_confirmed" | "receipt_unchecked" | "removed" }) =>
  write(db, [{ ...e, actor: "scheduler", appName: null }]);

/**
 * Whether an earlier attempt to publish this draft ended without being published (retried,
 * unknown, failed), whatever happened since (rescheduled, published now): such an attempt may
 * have posted it after all (a 5xx after the network posted).
 */
export async function triedBefore(db: Db, userId: string, type: DraftType, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: draftEvents.id })
    .from(draftEvents)
    .where(
      and(
        eq(draftEvents.userId, userId),
        eq(draftEvents.draftId, id),
        eq(draftEvents.draftType, type),
        inArray(draftEvents.kind, ["retrying", "unknown", "failed"]),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** A deleted draft leaves no history behind, nor do the tweets that went with its post. */
export async function forget(db: Db, userId: string, draftId: string) {
  try {
    const goneTweets = sql`${draftEvents.draftType} = 'tweet'
      and ${draftEvents.draftId} not in (select ${tweetDrafts.id} from ${tweetDrafts} where ${tweetDrafts.userId} = ${userId})`;
    await db.delete(draftEvents).where(and(eq(draftEvents.userId, userId), or(eq(draftEvents.draftId, draftId), goneTweets)));
  } catch (e) {
    log("warn", "history", errorFacts(e));
  }
}

export type HistoryEntry = {
  at: Date;
  kind: DraftEventKind | "approval_asked" | "approval_approved" | "approval_denied" | "approval_used";
  actor: "app" | "owner" | "scheduler";
  appName: string | null;
  detail: Record<string, string | null>;
};

/** A draft's history, oldest first: its events and every approval an app asked for it. */
export async function draftHistory(db: Db, userId: string, type: DraftType, id: string): Promise<HistoryEntry[]> {
  const events = await db
    .select()
    .from(draftEvents)
    .where(and(eq(draftEvents.userId, userId), eq(draftEvents.draftId, id), eq(draftEvents.draftType, type)))
    .orderBy(asc(draftEvents.createdAt));
  const asks = await db
    .select({ a: approvals, appName: oauthClients.name })
    .from(approvals)
    .innerJoin(connectedApps, eq(connectedApps.id, approvals.appId))
    .innerJoin(oauthClients, eq(oauthClients.id, connectedApps.clientId))
    .where(and(eq(approvals.userId, userId), sql`${approvals.action}->>'id' = ${id}`, sql`${approvals.action}->>'type' = ${type}`));
  const out: HistoryEntry[] = events.map((e) => ({ at: e.createdAt, kind: e.kind, actor: e.actor, appName: e.appName, detail: e.detail }));
  for (const { a, appName } of asks) {
    const detail = { operation: a.operation, scheduled_for: a.action.scheduled_for, approval_id: a.id };
    out.push({ at: a.createdAt, kind: "approval_asked", actor: "app", appName, detail });
    if (a.decidedAt) out.push({ at: a.decidedAt, kind: a.status === "denied" ? "approval_denied" : "approval_approved", actor: "owner", appName, detail });
    if (a.usedAt) out.push({ at: a.usedAt, kind: "approval_used", actor: "app", appName, detail });
  }
  return out.sort((x, y) => x.at.getTime() - y.at.getTime());
}

/** For a page of drafts: who made or last changed each one (the latest event by someone). */
export async function lastChangedBy(db: Db, userId: string, ids: string[]) {
  const out = new Map<string, { actor: "app" | "owner" | "scheduler"; appName: string | null; kind: DraftEventKind; at: Date }>();
  if (!ids.length) return out;
  const rows = await db
    .selectDistinctOn([draftEvents.draftId], {
      draftId: draftEvents.draftId,
      actor: draftEvents.actor,
      appName: draftEvents.appName,
      kind: draftEvents.kind,
      at: draftEvents.createdAt,
    })
    .from(draftEvents)
    .where(and(eq(draftEvents.userId, userId), inArray(draftEvents.draftId, ids), inArray(draftEvents.actor, ["app", "owner"])))
    .orderBy(draftEvents.draftId, desc(draftEvents.createdAt));
  for (const r of rows) out.set(r.draftId, r);
  return out;
}
