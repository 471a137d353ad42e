import type { Caller } from "@/lib/domain/context";
import { AppError } from "@/lib/core/errors";
import { consumeRequest, type RateDecision } from "@/lib/adapters/ratelimit";

// The caller's budget, the one place it is charged. One budget per user, REST and MCP together
// (an app's media downloads too): every operation call pays one point, and so does every MCP
// message, answers and notifications included, none of them free to flood. An MCP request pays
// for its first message before its body is read, so that a body refused as too large or
// unreadable still counts and a caller out of budget is refused before a large body is read;
// a tool call then takes that point in its operation (`Prepaid`), where a refusal is a tool
// error the model can read. The approved action that runOperation runs once more after the
// owner said yes is not charged again.

/** Who pays: one budget per user, sized by their plan. */
export type Payer = Pick<Caller, "userId" | "plan">;

/**
 * A point a surface paid before it could tell which operation it serves (MCP pays for a
 * request before reading its body): the first operation run with it takes it instead of
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

/** Charges one point: the one `paid` still holds, else a new one. The decision, allowed or not. */
export const charge = async (payer: Payer, paid?: Prepaid): Promise<RateDecision> => paid?.take() ?? consumeRequest(payer.userId, payer.plan);

export function rateLimited(rate: RateDecision): AppError {
  return new AppError(
    "rate_limited",
    `Too many requests: this account may make ${rate.limit} requests a minute (REST and MCP together).`,
    `Wait ${rate.retryAfter} seconds (Retry-After) and try again.`,
  );
}

/** Charges one point as charge() does, tells `onRate` the decision, and throws rate_limited when it is a refusal. */
export async function pay(payer: Payer, paid?: Prepaid, onRate?: (rate: RateDecision) => void): Promise<RateDecision> {
  const rate = await charge(payer, paid);
  onRate?.(rate);
  if (!rate.allowed) throw rateLimited(rate);
  return rate;
}

/**
 * The rest of an MCP request's price, once its body is read: `first` is the point it paid
 * before (charge()). Each tool call pays in its operation, the first with that point; every
 * other message pays here, the first of them with that point when no tool call takes it. The
 * first refusal, or null when everything was paid.
 */
export async function chargeMessages(payer: Payer, first: RateDecision, messages: { method?: string }[]): Promise<RateDecision | null> {
  const others = messages.filter((m) => m?.method !== "tools/call").length;
  const noToolCall = others === messages.length;
  if (noToolCall && !first.allowed) return first;
  for (let i = noToolCall ? 1 : 0; i < others; i++) {
    const more = await charge(payer);
    if (!more.allowed) return more;
  }
  return null;
}
