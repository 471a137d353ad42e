import { and, eq, inArray, sql } from "drizzle-orm";
import { AppError, invalid, notFound } from "@/lib/core/errors";
import { needsOf, scopeProblem } from "@/lib/domain/networks/scopes";
import { platformOf } from "@/lib/domain/networks/platform";
import { networkFor } from "@/lib/domain/networks";
import { requireFitsNetwork } from "../drafts/fit";
import type { Db } from "@/lib/adapters/db";
import type { Ctx } from "../context";
import type { StoredConnection } from "../ports";
import { spendApproval, withApproval, type ExactAction } from "../approvals/approvals";
import { attachmentsOf, contentHashOf, contentOf } from "../drafts/content-hash";
import { draftTable, label, loadOwn, type DraftType } from "../drafts/drafts";
import { publishingProblem, requirePublishableAt } from "../accounts/health";
import { claimForNow, publishClaimed } from "./publish";
import { iso } from "../drafts/text";
import { nextSlotFor } from "../queue/queue";
import { requireUnderCap } from "../spend/x-publish";
import { draftScheduled, draftUnscheduled } from "@/lib/domain/webhooks/domain-events";
import { ensureLinkCard } from "../drafts/link-card";
import { replyRule } from "@/lib/domain/networks/x/pricing";

const MAX_AHEAD_MS = 365 * 24 * 3600 * 1000;

type Row = Awaited<ReturnType<typeof loadOwn>>;

/**
 * A LinkedIn post's link card, read before an app's request is approved, so the approval shows
 * and covers it. The owner in person acts on what their page showed (it read the card first).
 */
async function cardBeforeApproval(ctx: Ctx, input: { type: DraftType; id: string }) {
  if (input.type === "post" && !ctx.caller.inPerson) await ensureLinkCard(ctx.db, ctx.ports, ctx.caller.userId, input.id);
}

/**
 * Why a draft in its state can no longer be scheduled or published (`what`: "scheduled",
 * "published"), with what to do instead, or null. preview_publish says it as publish_now would.
 */
export function finalState(d: Pick<Row, "status" | "publishedAt" | "platformUrl" | "failureReason">, type: DraftType, what: string) {
  if (d.status === "published")
    return {
      message: `This ${label(type)} was already published${d.publishedAt ? ` at ${iso(d.publishedAt)}` : ""}; the service never posts the same draft twice.`,
      hint: d.platformUrl ? `It is live at ${d.platformUrl}. To post again, create a new draft.` : "To post again, create a new draft.",
    };
  if (d.status === "removed")
    return {
      message:
        `This ${label(type)} was published and then removed by the network ` + `(${d.failureReason ?? "it was gone when read back"}); it is not ${what} again.`,
      hint: "To post it again, create a new draft with the same text.",
    };
  if (d.status === "publishing")
    return { message: `This ${label(type)} is being published right now and cannot be ${what}.`, hint: "Check its status with fetch_item in a minute." };
  if (d.status === "unknown")
    return {
      message:
        `This ${label(type)} may already have been posted ` + `(the platform did not confirm: ${d.failureReason ?? "no answer"}), so it is not ${what} again.`,
      hint: "Check the account on the platform; if the post is not there, create a new draft with the same text.",
    };
  return null;
}

/** The states from which a draft can no longer be scheduled or published. */
function refuseFinal(d: Row, type: DraftType, what: string) {
  const final = finalState(d, type, what);
  if (final) throw new AppError("action_failed", final.message, final.hint);
}

/**
 * The account the draft goes to (its own, else the network's default), which must be able to
 * publish: its id is bound to the draft by the action, so that what the owner approves names
 * where it goes and a later change of the default does not move it. Null: the built-in
 * sandbox with no account connected.
 */
async function targetAccount(tx: Db, ctx: Ctx, type: DraftType, d: Row): Promise<{ id: string | null; connection: StoredConnection | null }> {
  const platform = platformOf(type);
  const connection = await ctx.ports.platforms.connection(tx, ctx.caller.userId, platform, d.accountId);
  const problem = await publishingProblem(ctx, platform, connection);
  if (problem) throw new AppError("action_failed", problem, "Connect the account, then repeat the call.");
  return { id: connection?.target?.id ?? d.accountId ?? null, connection };
}

/**
 * Content the account's network would refuse (text past its limit) or the connection has no
 * permission to post (images on an X connection made without media.write) is refused now,
 * never at its scheduled time.
 */
function requirePermissions(ctx: Ctx, type: DraftType, d: Row, connection: StoredConnection | null) {
  const net = networkFor(platformOf(type), connection);
  requireFitsNetwork(net, contentOf(d));
  if (!ctx.ports.platforms.configured(net.id)) return; // the sandbox takes everything
  requireRepliesTaken(ctx, net.id, contentOf(d));
  const a = attachmentsOf(contentOf(d));
  const media = a.image_urls.length > 0 || !!a.document || a.thread.some((p) => p.image_urls.length > 0);
  const problem = scopeProblem(net.id, connection?.scope, needsOf(media));
  const { name } = net;
  if (problem)
    throw new AppError(
      "action_failed",
      problem,
      `Reconnect ${name} in Settings > Connections (signing in with ${name} again grants it), then repeat the call.`,
    );
}

/**
 * X_REPLIES=refused: the operator knows X refuses this app's replies (self-serve since
 * 2026-02-23), so a thread or a first comment to X is refused here rather than stopping after
 * its first post at X.
 */
function requireRepliesTaken(ctx: Ctx, network: string, c: ReturnType<typeof contentOf>) {
  if (network !== "x") return;
  const rule = replyRule({ body: c.body, thread: c.thread?.map((p) => p.text), firstComment: c.firstComment }, ctx.ports.config().X_REPLIES);
  if (!rule?.refused) return;
  throw new AppError(
    "action_failed",
    rule.message,
    "Remove the thread's further parts and the first comment with update_draft (or post them by hand on X), then repeat the call.",
  );
}

const action = (operation: string, args: Record<string, unknown>, type: DraftType, d: Row, scheduledFor: Date | null, account: string | null): ExactAction => ({
  operation,
  args,
  type,
  id: d.id,
  ...contentOf(d),
  scheduledFor,
  account,
});

/** A time a draft may be scheduled for: far enough ahead for the engine, and within a year. */
export function requireSchedulable(ctx: Ctx, given: Date) {
  const lead = given.getTime() - ctx.now().getTime();
  const minLead = ctx.ports.config().SCHEDULE_MIN_LEAD_SECONDS;
  if (lead < minLead * 1000) throw invalid([{ path: "scheduled_for", message: `Must be at least ${minLead} seconds in the future` }]);
  if (lead > MAX_AHEAD_MS) throw invalid([{ path: "scheduled_for", message: "Must be at most 365 days ahead" }]);
}

/** `scheduled_for` or `slot: "next"` (the next free slot of the queue of the account the draft goes to). */
export type ScheduleInput = { type: DraftType; id: string; scheduled_for?: string; slot?: "next" };

export async function scheduleContent(ctx: Ctx, input: ScheduleInput) {
  const given = input.scheduled_for ? new Date(input.scheduled_for) : null;
  if (given) requireSchedulable(ctx, given);
  await cardBeforeApproval(ctx, input);
  const t = draftTable(input.type);
  const outcome = await withApproval(ctx, async (tx) => {
    const d = await loadOwn(tx, ctx, input.type, input.id);
    refuseFinal(d, input.type, "scheduled");
    const account = await targetAccount(tx, ctx, input.type, d);
    // A queue's slot is found again on the repeated call: the approval matches while it is still free.
    const at = given ?? (await nextSlotFor(ctx, tx, input.type, account.id, d.id));
    requirePublishableAt(ctx, input.type, at, account.connection);
    requirePermissions(ctx, input.type, d, account.connection);
    // The approval covers the exact time (normalised, so +02:00 and Z spellings agree) and account.
    const a = action("schedule_content", { type: input.type, id: d.id, scheduled_for: at.toISOString() }, input.type, d, at, account.id);
    await spendApproval(ctx, tx, a);
    // One UPDATE moves it: there is no moment in which a rescheduled draft is unscheduled.
    const [row] = await tx
      .update(t)
      .set({
        status: "scheduled",
        scheduledFor: at,
        publishAttempts: 0,
        firstAttemptAt: null,
        nextAttemptAt: null,
        failureReason: null,
        // What the owner just approved, and where it goes; the publisher posts only content that still hashes to it.
        accountId: account.id,
        approvedContentHash: contentHashOf({ ...d, accountId: account.id }),
        updatedAt: sql`greatest(now(), ${t.updatedAt} + interval '1 millisecond')`,
      })
      .where(and(eq(t.id, d.id), inArray(t.status, ["draft", "scheduled", "failed"])))
      .returning();
    await draftScheduled(tx, ctx, input.type, row, d.status === "scheduled" ? d.scheduledFor : null);
    return {
      done: {
        id: row.id,
        type: input.type,
        platform: platformOf(input.type),
        scheduled_for: at.toISOString(),
        status: "scheduled" as const,
        rescheduled: d.status === "scheduled",
      },
      previous: d.status === "scheduled" ? d.scheduledFor : null,
      version: row.updatedAt.getTime(),
      at,
    };
  });
  await ctx.ports.events.scheduled({
    type: input.type,
    id: input.id,
    userId: ctx.caller.userId,
    scheduledFor: outcome.at,
    previous: outcome.previous,
    version: outcome.version,
  });
  return outcome.done;
}

export async function unscheduleContent(ctx: Ctx, input: { type: DraftType; id: string }) {
  const t = draftTable(input.type);
  const result = await ctx.db.transaction(async (tx) => {
    const d = await loadOwn(tx, ctx, input.type, input.id);
    if (d.status === "publishing") {
      throw new AppError(
        "action_failed",
        `This ${label(input.type)} is being published right now and cannot be taken back.`,
        "Check its status with fetch_item in a minute.",
      );
    }
    if (d.status !== "scheduled")
      return { out: { id: d.id, type: input.type, unscheduled: false, previous_scheduled_for: null as string | null, status: d.status }, version: null };
    const [row] = await tx
      .update(t)
      .set({
        status: "draft",
        scheduledFor: null,
        publishAttempts: 0,
        firstAttemptAt: null,
        nextAttemptAt: null,
        failureReason: null,
        approvedContentHash: null,
        updatedAt: sql`greatest(now(), ${t.updatedAt} + interval '1 millisecond')`,
      })
      .where(and(eq(t.id, d.id), eq(t.status, "scheduled")))
      .returning();
    await draftUnscheduled(tx, ctx, input.type, row, d.scheduledFor);
    const out = { id: d.id, type: input.type, unscheduled: true, previous_scheduled_for: iso(d.scheduledFor), status: row.status };
    return { out, version: row.updatedAt.getTime() };
  });
  const { out, version } = result;
  if (version !== null) {
    await ctx.ports.events.unscheduled({
      type: input.type,
      id: input.id,
      userId: ctx.caller.userId,
      scheduledFor: new Date(out.previous_scheduled_for!),
      version,
    });
  }
  return out;
}

export async function publishNow(ctx: Ctx, input: { type: DraftType; id: string }) {
  await cardBeforeApproval(ctx, input);
  const claimed = await withApproval(ctx, async (tx) => {
    const d = await loadOwn(tx, ctx, input.type, input.id);
    refuseFinal(d, input.type, "published");
    const account = await targetAccount(tx, ctx, input.type, d);
    requirePermissions(ctx, input.type, d, account.connection);
    await requireUnderCap(ctx, tx, { ...d, type: input.type, accountId: account.id });
    await spendApproval(ctx, tx, action("publish_now", { type: input.type, id: d.id }, input.type, d, d.scheduledFor, account.id));
    // The claim records the approved content's hash and account, as scheduling does, so both paths check alike.
    return claimForNow(tx, input.type, d.id, ctx.caller.userId, ctx.now(), contentHashOf({ ...d, accountId: account.id }), account.id);
  });
  if (!claimed) throw notFound(label(input.type));
  // The platform is called outside any transaction (PGlite has one connection).
  const o = await publishClaimed(ctx.db, claimed, ctx.ports);
  if (o.status === "published") return { platform: o.platform, platform_post_id: o.postId, url: o.url };
  // A thread may have stopped part way: its posted parts stay out and are never sent again.
  const out = claimed.publishProgress?.parts.length ?? 0; // kept current by the publish's onProgress
  const posted = !out ? "nothing was posted" : `${out === 1 ? "part 1 is" : `parts 1–${out} are`} posted and will not be posted again`;
  if (o.status === "retrying") {
    throw new AppError(
      "action_failed",
      `The platform could not take the post right now (${o.reason}); ${posted}.`,
      o.restartWindow
        ? `The service tries again at ${o.nextAttemptAt.toISOString()}, when the network's ` +
            `daily cap resets; check its status with fetch_item. Do not call publish_now again.`
        : `The service retries automatically (next at ${o.nextAttemptAt.toISOString()}, for ` +
            `up to 30 minutes); check its status with fetch_item. Do not call publish_now again.`,
    );
  }
  if (o.status === "unknown") {
    throw new AppError(
      "action_failed",
      `The platform did not confirm the post: ${o.reason}`,
      "It may have been posted: check the account on the platform before doing anything else. It will not be retried automatically.",
    );
  }
  const again = out ? "publish again to post the rest" : "publish again";
  throw new AppError(
    "action_failed",
    `Publishing failed: ${o.reason}`,
    `${posted[0].toUpperCase()}${posted.slice(1)}. Fix the cause, then ${again} (a new approval is needed).`,
  );
}
