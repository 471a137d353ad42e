import { and, eq, gt } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError, Unauthorized } from "@/lib/core/errors";
import { approvals, publishingAccounts, users, type ApprovalAction, type ProposedContent } from "@/drizzle/schema";
import { networkFor } from "@/lib/domain/networks";
import { requirePublishing } from "../guards";
import { attachmentsOf, contentHashOf, type DraftContent } from "../drafts/content-hash";
import type { Ctx } from "../context";
import { sha256 } from "../hash";
import { iso } from "../drafts/text";
import { appConnected } from "../apps/tokens";
import { emit } from "@/lib/domain/webhooks/emit";
import { xFactsOf } from "@/lib/domain/networks/x/pricing";
import { keepPlanOpen, planFor, planUrl } from "./plans";

export const APPROVAL_TTL_MS = 10 * 60 * 1000;

/**
 * When an approved action takes effect, as the owner is shown it: a schedule (or an edit of a
 * scheduled draft, which keeps its time) at its time; publishing and deleting at once, even
 * for a draft that was scheduled for later (null: "now").
 */
export const actsAt = (a: ApprovalAction): string | null => (a.operation === "publish_now" || a.operation === "delete_draft" ? null : a.scheduled_for);

/**
 * The exact action an approval stands for: the operation, its arguments and the draft's
 * content (title, text, images, document, thread parts: contentOf(row)).
 */
export type ExactAction = DraftContent & {
  operation: string;
  /** The call's arguments, without confirmation_id. */
  args: Record<string, unknown>;
  type: string;
  id: string;
  scheduledFor: Date | null;
  /** For an edit: the content the draft would have, shown to the owner beside the current. */
  proposed?: ProposedContent;
  /**
   * The account it goes to, as the action binds it (the draft's own, or the network's default
   * at this moment); undefined for actions that post nothing.
   */
  account?: string | null;
};

const argsHash = (a: ExactAction) => sha256({ operation: a.operation, args: a.args });
// If the draft's content (title, text, images, document, thread) or schedule changes after approval, the
// approval no longer matches. An edit's proposal follows from its arguments and the current
// content, so the two hashes cover it too.
// The content as it goes out: to the account the action binds (the same before and after the
// draft records it, so a second approved action on it still matches).
const contentHash = (a: ExactAction) =>
  sha256({ content: contentHashOf(a.account === undefined ? a : { ...a, accountId: a.account }), scheduled_for: iso(a.scheduledFor) });

function matching(ctx: Ctx, a: ExactAction) {
  const conds = [
    eq(approvals.userId, ctx.caller.userId),
    eq(approvals.appId, ctx.caller.appId),
    eq(approvals.operation, a.operation),
    eq(approvals.argsHash, argsHash(a)),
    eq(approvals.contentHash, contentHash(a)),
    gt(approvals.expiresAt, ctx.now()),
  ];
  if (ctx.confirmationId) conds.push(eq(approvals.id, ctx.confirmationId));
  return conds;
}

const appGone = () => new Unauthorized("The app was disconnected from the account, so nothing was done.", true);

/** Ends a withApproval transaction (rolling back what it did) when the approval is missing. */
class ApprovalNeeded {
  constructor(readonly action: ExactAction) {}
}

/** The owner's page acted on content other than what it showed: nothing is done. */
export const changedSinceShown = (type: string) =>
  new AppError(
    "action_failed",
    `This ${type} changed after the page showed it (an app may have edited it), so nothing was done.`,
    "Reload the page, read what it says now, and try again.",
  );

/**
 * Uses up an approved, unexpired, unused approval of exactly this action, or ends the
 * transaction asking for one. Call it inside withApproval: the approval is spent only if the
 * action commits.
 */
export async function spendApproval(ctx: Ctx, tx: Db, a: ExactAction): Promise<void> {
  // docs/interface.md, Confirmation, point 6: what the owner does in the service's own pages is
  // confirmed by the page, and the page confirms only the content it showed: a page that did
  // not say what it showed (no hash) confirms nothing.
  if (ctx.caller.inPerson) {
    if (ctx.shown !== contentHashOf(a)) throw changedSinceShown(a.type);
    return;
  }
  // The switch as it is now, not as the call found it: an approved call runs again on the
  // caller it started with, minutes later, and the owner may have turned publishing off.
  const [now] = await tx.select({ publishingAllowed: users.publishingAllowed }).from(users).where(eq(users.id, ctx.caller.userId)).for("share");
  requirePublishing({ ...ctx.caller, publishingAllowed: Boolean(now?.publishingAllowed) });
  // Likewise the app: the owner may have disconnected it since the call's token check.
  if (!(await appConnected(tx, ctx))) throw appGone();
  const used = await tx
    .update(approvals)
    .set({ status: "used", usedAt: ctx.now() })
    .where(and(...matching(ctx, a), eq(approvals.status, "approved")))
    .returning({ id: approvals.id });
  if (used.length === 0) throw new ApprovalNeeded(a);
}

/**
 * One transaction of an action that needs the owner's approval of its exact content: `work`
 * loads and checks the draft, calls spendApproval, then acts. Without a matching approval
 * nothing it did stays, and the answer is confirmation_required with the approval link.
 */
export async function withApproval<T>(ctx: Ctx, work: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.transaction(work);
  } catch (e) {
    if (e instanceof ApprovalNeeded) throw await approvalRequired(ctx, e.action);
    throw e;
  }
}

/**
 * A waiting request asked for again with another plan label (or with one, first asked without):
 * it moves to that plan, so the review holds what the app last said belongs together.
 */
async function joinPlan(ctx: Ctx, open: typeof approvals.$inferSelect): Promise<typeof approvals.$inferSelect> {
  if (!ctx.plan || open.action.plan?.label === ctx.plan) return open;
  return ctx.db.transaction(async (tx) => {
    const plan = await planFor(tx, ctx, ctx.plan!);
    const [moved] = await tx
      .update(approvals)
      .set({ action: { ...open.action, plan } })
      .where(and(eq(approvals.id, open.id), eq(approvals.status, "pending")))
      .returning();
    return moved ?? open;
  });
}

/**
 * The answer to a call without a matching approval: a pending approval (reused while one
 * for the same exact action is open) and the confirmation_required error that links to it.
 */
async function approvalRequired(ctx: Ctx, a: ExactAction): Promise<AppError> {
  const [open] = await ctx.db
    .select()
    .from(approvals)
    .where(and(...matching({ ...ctx, confirmationId: undefined }, a), eq(approvals.status, "pending")))
    .limit(1);
  const [target] = a.account
    ? await ctx.db
        .select({
          id: publishingAccounts.id,
          name: publishingAccounts.name,
          handle: publishingAccounts.handle,
          kind: publishingAccounts.kind,
          platform: publishingAccounts.platform,
          provider: publishingAccounts.provider,
        })
        .from(publishingAccounts)
        .where(and(eq(publishingAccounts.id, a.account), eq(publishingAccounts.userId, ctx.caller.userId)))
    : [];
  // The owner is shown where it goes by network too: a tweet goes to X or Bluesky.
  const account = target && { id: target.id, name: target.name, handle: target.handle, kind: target.kind, network: networkFor(target.platform, target).id };
  const action: ApprovalAction = {
    operation: a.operation,
    type: a.type,
    id: a.id,
    title: a.title,
    scheduled_for: iso(a.scheduledFor),
    ...(account && { account }),
  };
  const origin = ctx.ports.config().origin;
  const row =
    (open && (await joinPlan(ctx, open))) ??
    // The approval and its approval.requested event commit together.
    (await ctx.db.transaction(async (tx) => {
      // The plan first: it locks the app's row for update, which appConnected's share lock
      // then holds already (the other order deadlocks calls made at once).
      const plan = ctx.plan ? await planFor(tx, ctx, ctx.plan) : undefined;
      // The owner is not asked on behalf of an app they disconnected meanwhile.
      if (!(await appConnected(tx, ctx))) throw appGone();
      const [created] = await tx
        .insert(approvals)
        .values({
          userId: ctx.caller.userId,
          appId: ctx.caller.appId,
          operation: a.operation,
          argsHash: argsHash(a),
          contentHash: contentHash(a),
          action: { ...action, ...(plan && { plan }) },
          body: a.body,
          imageUrl: a.imageUrl,
          attachments: attachmentsOf(a),
          proposed: a.proposed ?? null,
          expiresAt: new Date(ctx.now().getTime() + APPROVAL_TTL_MS),
        })
        .returning();
      if (plan) await keepPlanOpen(tx, ctx, plan.id, created.expiresAt);
      const data = {
        approval_id: created.id,
        url: `${origin}/confirm/${created.id}`,
        operation: a.operation,
        draft: { type: a.type, id: a.id, title: a.title },
        scheduled_for: iso(a.scheduledFor),
        expires_at: created.expiresAt.toISOString(),
        app_name: ctx.caller.appName || null,
        ...(plan && { plan: { id: plan.id, label: plan.label, url: planUrl(origin, plan.id) } }),
      };
      await emit(tx, { userId: ctx.caller.userId, type: "approval.requested", subject: `approval:${created.id}`, data }, { now: ctx.now() });
      return created;
    }));
  const url = `${origin}/confirm/${row.id}`;
  // What it costs on X, said before the owner is asked (the approval page says it too).
  const onX = a.type === "tweet" && (account ? account.network === "x" : true) && ctx.ports.platforms.configured("x");
  const price = xFactsOf(
    { sandbox: !onX, network: "X" },
    a.operation,
    {
      body: a.proposed?.body ?? a.body,
      thread: (a.proposed?.attachments?.thread ?? a.thread)?.map((p) => p.text),
      firstComment: a.proposed ? a.proposed.attachments?.first_comment : a.firstComment,
    },
    ctx.ports.config(),
  )?.sentence;
  const plan = row.action.plan && { id: row.action.plan.id, label: row.action.plan.label, url: planUrl(origin, row.action.plan.id) };
  const ask = plan
    ? `Ask the user to open ${plan.url}, where every action of the plan "${plan.label}" waits in one review, approve, and then repeat each call`
    : `Ask the user to open ${url}, approve it, and then repeat the same call`;
  return new AppError(
    "confirmation_required",
    `The account owner must approve this exact action (${a.operation} of ${a.type} "${a.title}") before it runs.${price ? ` It costs ${price}.` : ""}`,
    `${ask} (optionally with confirmation_id "${row.id}"). The request expires in 10 minutes.`,
    undefined,
    { id: row.id, url, expires_at: row.expiresAt.toISOString(), action, ...(plan && { plan }) },
  );
}

/**
 * What an owner's page shows it decides on: the request's exact action (operation and
 * arguments) and its content and time, as the app will repeat them.
 */
export const decisionHash = (a: { argsHash: string; contentHash: string }) => sha256({ args: a.argsHash, content: a.contentHash });

/**
 * The owner's decision on the approval page (or in tests). Only the owner, only while
 * pending and unexpired; an approval is then good for 10 minutes.
 */
export async function decideApproval(
  db: Db,
  userId: string,
  approvalId: string,
  decision: "approved" | "denied",
  now = new Date(),
  shown?: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    // A page that says what it showed (decisionHash) decides only that request as it showed it.
    if (shown !== undefined) {
      const [asked] = await tx
        .select({ argsHash: approvals.argsHash, contentHash: approvals.contentHash })
        .from(approvals)
        .where(and(eq(approvals.id, approvalId), eq(approvals.userId, userId)))
        .for("update");
      if (!asked || decisionHash(asked) !== shown) return false;
    }
    const [row] = await tx
      .update(approvals)
      .set({
        status: decision,
        decidedAt: now,
        ...(decision === "approved" ? { expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS) } : {}),
      })
      .where(and(eq(approvals.id, approvalId), eq(approvals.userId, userId), eq(approvals.status, "pending"), gt(approvals.expiresAt, now)))
      .returning({ id: approvals.id, operation: approvals.operation, action: approvals.action, expiresAt: approvals.expiresAt });
    if (!row) return false;
    const data = {
      approval_id: row.id,
      decision,
      operation: row.operation,
      draft: { type: row.action.type, id: row.action.id, title: row.action.title },
      expires_at: row.expiresAt.toISOString(),
    };
    await emit(tx, { userId, type: "approval.decided", subject: `approval:${row.id}`, data }, { now });
    return true;
  });
}
