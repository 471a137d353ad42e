import { db } from "@/lib/db";
import type { Caller, Ctx } from "@/lib/domain/context";
import { AppError, type Confirmation } from "@/lib/errors";
import { ports } from "@/lib/ports";
import { consumeRequest, type RateDecision } from "@/lib/ratelimit";
import type { Operation } from "./define";
import { execute } from "./execute";

/**
 * A budget decision a surface took before it could tell which operation it serves (MCP pays
 * for a request before reading its body): the first operation run with it takes it instead of
 * counting again.
 */
export type Prepaid = { take(): RateDecision | undefined };

export function prepaid(rate: RateDecision): Prepaid {
  let left: RateDecision | undefined = rate;
  return {
    take: () => {
      const r = left;
      left = undefined;
      return r;
    },
  };
}

/** The caller's point for one operation: the one its request paid, else a new one. */
export const charge = async (caller: Caller, paid?: Prepaid): Promise<RateDecision> => paid?.take() ?? consumeRequest(caller.userId, caller.plan);

export type RunOptions = {
  requestId: string;
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
};

export function rateLimited(rate: RateDecision): AppError {
  return new AppError(
    "rate_limited",
    `Too many requests: this account may make ${rate.limit} requests a minute (REST and MCP together).`,
    `Wait ${rate.retryAfter} seconds (Retry-After) and try again.`,
  );
}

/**
 * The one door every surface uses after authenticating: the caller's budget (one per user,
 * REST and MCP together), the context, then execute(). When the action needs the owner's
 * approval and the surface can ask right away, the approved action runs once, uncounted.
 */
export async function runOperation(caller: Caller, op: Operation, readInput: () => unknown, opts: RunOptions) {
  const rate = await charge(caller, opts.prepaid);
  opts.onRate?.(rate);
  if (!rate.allowed) throw rateLimited(rate);
  // Read only now (a REST body after the budget check: refused requests cost no parsing).
  const input = await readInput();
  const p = ports();
  const ctx: Ctx = { db: await db(), caller, now: p.clock, ports: p, requestId: opts.requestId, signal: opts.signal };
  try {
    return await execute(ctx, op, input, opts);
  } catch (e) {
    if (!(e instanceof AppError && e.code === "confirmation_required" && e.confirmation && opts.confirm)) throw e;
    if (!(await opts.confirm(e.confirmation, ctx))) throw e;
    return execute(ctx, op, { ...(input as Record<string, unknown>), confirmation_id: e.confirmation.id }, opts);
  }
}
