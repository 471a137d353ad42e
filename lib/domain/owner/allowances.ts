import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError } from "@/lib/core/errors";
import { allowancePeriods, creditEvents, type Plan } from "@/drizzle/schema";
import { rowsOf } from "@/lib/adapters/db/rows";
import type { Ctx } from "../context";

// Plans of docs/interface.md, Plans and limits. Allowances run per calendar month in UTC (not the user's time
// zone): one period row per user and month, so every user's allowance resets at the same
// instant, 00:00 UTC on the first day of the month.
export const PLANS: Record<Plan, { posts: number; aiActions: number; credits: number }> = {
  none: { posts: 0, aiActions: 0, credits: 0 },
  plus: { posts: 30, aiActions: 100, credits: 1_000 },
  premium: { posts: 120, aiActions: 500, credits: 5_000 },
  creator: { posts: 400, aiActions: 2_000, credits: 20_000 },
};

/**
 * Bytes of uploaded media (upload_media) a plan may keep, counted as stored (images after
 * re-encoding). Not monthly: media stay until the account is deleted. Sized for drafts, not
 * for an archive: plus 100 MB (20 full-size images or 5 large PDFs a week for a month),
 * premium 1 GB, creator 5 GB.
 */
export const MEDIA_STORAGE_BYTES: Record<Plan, number> = {
  none: 0,
  plus: 100 * 1024 * 1024,
  premium: 1024 * 1024 * 1024,
  creator: 5 * 1024 * 1024 * 1024,
};

/** AI credits one generation costs (a post is longer work than a tweet). */
export const CREDIT_COST = { generate_post: 10, generate_tweet: 3 } as const;
export type Generation = keyof typeof CREDIT_COST;

export const periodOf = (d: Date) => d.toISOString().slice(0, 7); // YYYY-MM (UTC)
export const resetsAt = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

export type Debit = { userId: string; period: string; posts: number; aiActions: number; credits: number; eventId: string };

/** What is left this month (a missing period row means nothing used yet). */
export async function remaining(db: Db, userId: string, plan: Plan, now: Date) {
  const [row] = await db
    .select()
    .from(allowancePeriods)
    .where(and(eq(allowancePeriods.userId, userId), eq(allowancePeriods.period, periodOf(now))));
  const p = PLANS[plan];
  return {
    posts_remaining: Math.max(0, p.posts - (row?.postsUsed ?? 0)),
    ai_actions_remaining: Math.max(0, p.aiActions - (row?.aiActionsUsed ?? 0)),
    credits_remaining: Math.max(0, p.credits - (row?.creditsUsed ?? 0)),
    resets_at: resetsAt(now).toISOString(),
  };
}

/**
 * Debits one generation: the plan allowance (a post, or an AI action) and its credits in ONE
 * conditional upsert (numbers cast to int: untyped parameters would compare as text), so concurrent calls can never take the month over its limits (the row
 * lock of ON CONFLICT re-checks the WHERE against the latest counts). A credit_events row
 * records the debit for analytics. Throws 422 action_failed when anything is exhausted.
 */
export async function debit(ctx: Ctx, op: Generation): Promise<Debit> {
  const userId = ctx.caller.userId;
  const now = ctx.now();
  const period = periodOf(now);
  const limits = PLANS[ctx.caller.plan];
  const posts = op === "generate_post" ? 1 : 0;
  const aiActions = op === "generate_tweet" ? 1 : 0;
  const credits = CREDIT_COST[op];
  const eventId = await ctx.db.transaction(async (tx) => {
    const rows = await tx.execute(sql`
      insert into allowance_periods (user_id, period, posts_used, ai_actions_used, credits_used)
      select ${userId}, ${period}, ${posts}::int, ${aiActions}::int, ${credits}::int
      where ${posts}::int <= ${limits.posts}::int and ${aiActions}::int <= ${limits.aiActions}::int and ${credits}::int <= ${limits.credits}::int
      on conflict (user_id, period) do update set
        posts_used = allowance_periods.posts_used + excluded.posts_used,
        ai_actions_used = allowance_periods.ai_actions_used + excluded.ai_actions_used,
        credits_used = allowance_periods.credits_used + excluded.credits_used
      where allowance_periods.posts_used + excluded.posts_used <= ${limits.posts}::int
        and allowance_periods.ai_actions_used + excluded.ai_actions_used <= ${limits.aiActions}::int
        and allowance_periods.credits_used + excluded.credits_used <= ${limits.credits}::int
      returning 1 as ok`);
    const list = rowsOf(rows);
    if (!list.length) return null;
    const [ev] = await tx.insert(creditEvents).values({ userId, operation: op, credits, createdAt: now }).returning({ id: creditEvents.id });
    return ev.id;
  });
  if (!eventId) throw await exhausted(ctx, op);
  return { userId, period, posts, aiActions, credits, eventId };
}

async function exhausted(ctx: Ctx, op: Generation) {
  const now = ctx.now();
  const left = await remaining(ctx.db, ctx.caller.userId, ctx.caller.plan, now);
  const what =
    op === "generate_post" && left.posts_remaining === 0
      ? "post generations"
      : op === "generate_tweet" && left.ai_actions_remaining === 0
        ? "AI actions"
        : "AI credits";
  return new AppError(
    "action_failed",
    `This month's ${what} on the ${ctx.caller.plan} plan are used up.`,
    `The allowance resets at ${left.resets_at} (the start of the next calendar month, UTC). ` +
      `Until then, write the text yourself and save it with create_draft, or upgrade the plan.`,
  );
}

/**
 * Gives a failed generation's debit back. Marking the credit event refunded is conditional,
 * so a debit is refunded at most once even if refund is called twice.
 */
export async function refund(db: Db, d: Debit): Promise<void> {
  await db.transaction(async (tx) => {
    const marked = await tx
      .update(creditEvents)
      .set({ refundedAt: sql`now()` })
      .where(and(eq(creditEvents.id, d.eventId), isNull(creditEvents.refundedAt)))
      .returning({ id: creditEvents.id });
    if (!marked.length) return;
    await tx
      .update(allowancePeriods)
      .set({
        postsUsed: sql`greatest(0, ${allowancePeriods.postsUsed} - ${d.posts})`,
        aiActionsUsed: sql`greatest(0, ${allowancePeriods.aiActionsUsed} - ${d.aiActions})`,
        creditsUsed: sql`greatest(0, ${allowancePeriods.creditsUsed} - ${d.credits})`,
      })
      .where(and(eq(allowancePeriods.userId, d.userId), eq(allowancePeriods.period, d.period)));
  });
}

/** Runs `work` with a debit taken first; any failure refunds it and rethrows. */
export async function withDebit<T>(ctx: Ctx, op: Generation, work: () => Promise<T>): Promise<T> {
  const d = await debit(ctx, op);
  try {
    return await work();
  } catch (e) {
    await refund(ctx.db, d).catch(() => {}); // the original error matters more
    throw e;
  }
}
