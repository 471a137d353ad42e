import { db } from "@/lib/adapters/db";
import type { Caller, Ctx } from "@/lib/domain/context";
import { AppError, type Confirmation } from "@/lib/core/errors";
import { ports } from "@/lib/adapters/ports";
import type { RateDecision } from "@/lib/adapters/ratelimit";
import { pay, type Prepaid } from "./budget";
import type { Operation } from "./define";
import { execute } from "./execute";

export type RunOptions = {
  requestId: string;
  /** The point the request already paid (budget.ts): taken instead of a new one. */
  prepaid?: Prepaid;
  idempotencyKey?: string;
  /** Told the rate decision, allowed or not (REST turns it into headers). */
  onRate?: (rate: RateDecision) => void;
  /**
   * A surface that can ask the owner while the call waits (MCP) resolves true once this
   * exact action was approved; false lets the confirmation_required error stand.
   */
  confirm?: (confirmation: Confirmation, ctx: Ctx) => Promise<boolean>;
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
export async function runOperation(caller: Caller, op: Operation, readInput: () => unknown, opts: RunOptions) {
  // The budget is the API's: the owner's own presses on their pages are not counted in it, so
  // a busy app never locks them out of their account.
  if (!caller.inPerson) await pay(caller, opts.prepaid, opts.onRate);
  // Read only now (a REST body after the budget check: refused requests cost no parsing).
  const input = await readInput();
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
  try {
    return await execute(ctx, op, input, opts);
  } catch (e) {
    if (!(e instanceof AppError && e.code === "confirmation_required" && e.confirmation && opts.confirm)) throw e;
    if (!(await opts.confirm(e.confirmation, ctx))) throw e;
    return execute(ctx, op, { ...(input as Record<string, unknown>), confirmation_id: e.confirmation.id }, opts);
  }
}
