import { db } from "@/lib/adapters/db";
import type { Caller, Ctx } from "@/lib/domain/context";
import { AppError, type Confirmation } from "@/lib/core/errors";
import { ports } from "@/lib/adapters/ports";
import type { RateDecision } from "@/lib/adapters/ratelimit";
import { pay, type Prepaid } from "./budget";
import type { Operation } from "./define";
import { execute } from "./execute";

/**
 * What a surface that can ask the owner while the call waits (MCP) decided about an action
 * that needs their approval: they approved it (it runs, once more, uncounted), or not now (the
 * approval link is the answer), or the call ends here with the surface's own `answer` (MCP
 * asked through an InputRequiredResult; a task was cancelled while it waited).
 */
export type Decision = "approved" | "not_now" | { stop: unknown };

/**
 * How a call ended, which each surface renders: done, with the operation's answer; waiting for
 * the owner's approval of this exact action (`refusal`: REST's 403 confirmation_required, with
 * the link); or stopped by the surface's own decision.
 */
export type Outcome = { kind: "done"; result: unknown } | { kind: "needs_approval"; refusal: AppError } | { kind: "stopped"; answer: unknown };

export type RunOptions = {
  requestId: string;
  /** The point the request already paid (budget.ts): taken instead of a new one. */
  prepaid?: Prepaid;
  idempotencyKey?: string;
  /** Told the rate decision, allowed or not (REST turns it into headers). */
  onRate?: (rate: RateDecision) => void;
  /** A surface that can ask the owner while the call waits (MCP) says what came of asking. */
  confirm?: (confirmation: Confirmation, ctx: Ctx) => Promise<Decision>;
  /** The caller gave up (Ctx.signal). */
  signal?: AbortSignal;
  /**
   * The owner in person only: the hash of the draft's content as their page showed it
   * (Ctx.shown). Ignored for any other caller.
   */
  shown?: string;
};

/**
 * The one door every surface uses after authenticating, the owner's pages included: the
 * caller's budget (budget.ts), the context, then execute(). When the action needs the owner's
 * approval and the surface can ask right away, the approved action runs once, uncounted.
 */
export async function runOperation(caller: Caller, op: Operation, readInput: () => unknown, opts: RunOptions): Promise<Outcome> {
  // The budget is the API's: the owner's own presses on their pages are not counted in it, so
  // a busy app never locks them out of their account.
  if (!caller.inPerson) await pay(caller, opts.prepaid, opts.onRate);
  // Read only now (a REST body after the budget check: refused requests cost no parsing).
  const input = (await readInput()) as Record<string, unknown>;
  const p = ports();
  const ctx: Ctx = {
    db: await db(),
    caller,
    now: p.clock,
    ports: p,
    requestId: opts.requestId,
    signal: opts.signal,
    ...(caller.inPerson && opts.shown !== undefined && { shown: opts.shown }),
  };
  const first = await attempt(ctx, op, input, opts);
  if (first.kind !== "needs_approval" || !opts.confirm) return first;
  const confirmation = first.refusal.confirmation!;
  const decision = await opts.confirm(confirmation, ctx);
  if (decision === "not_now") return first;
  if (decision !== "approved") return { kind: "stopped", answer: decision.stop };
  return attempt(ctx, op, { ...input, confirmation_id: confirmation.id }, opts);
}

/**
 * One run of the operation. A missing approval is a refusal the domain throws (it ends the
 * action's transaction, and REST answers it as it is); here, once, it becomes an outcome.
 */
async function attempt(ctx: Ctx, op: Operation, input: unknown, opts: RunOptions): Promise<Outcome> {
  try {
    return { kind: "done", result: await execute(ctx, op, input, opts) };
  } catch (e) {
    if (e instanceof AppError && e.code === "confirmation_required" && e.confirmation) return { kind: "needs_approval", refusal: e };
    throw e;
  }
}
