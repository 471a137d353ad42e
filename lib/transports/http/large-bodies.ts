import { AppError } from "@/lib/core/errors";
import { MAX_BODY_BYTES, type BodyGate } from "./body";

// A body over the usual cap (an upload's: tens of megabytes of base64; over MCP read before the
// tool is known) stays in memory, with copies of it made while it is parsed, until its request
// is answered. A client sending many of them slowly would otherwise have the process hold them
// all at once, bounded only by its per-minute budget. Like the uploads' work (mediaWork), such
// bodies are bounded, REST and MCP together: a few at once in the process and fewer of one
// user. One more is refused once it passes the usual cap, before the rest of it is read.

export const LARGE_BODIES = { perProcess: 4, perUser: 2 };

type Count = { total: number; byUser: Map<string, number> };
// One count per process, whichever route's bundle holds this module.
const count: Count = ((globalThis as { __contentioLargeBodies?: Count }).__contentioLargeBodies ??= { total: 0, byUser: new Map() });

/** The refusal: temporarily_unavailable (REST adds Retry-After; MCP answers it as a JSON-RPC error). */
export class TooManyLargeBodies extends AppError {
  constructor() {
    super(
      "temporarily_unavailable",
      "Too many large requests are being received right now, so this one was not read; nothing was changed.",
      "Retry in a few seconds (Retry-After).",
    );
  }
}

/**
 * The gate of one request's body: passing the usual cap takes one of the places of the
 * process and of `userId`, or throws TooManyLargeBodies. `release()` (once the request is
 * answered, whatever happened) gives the place back.
 */
export function largeBodyGate(userId: string): BodyGate & { release(): void } {
  let held = false;
  return {
    at: MAX_BODY_BYTES,
    admit() {
      if (held) return;
      const mine = count.byUser.get(userId) ?? 0;
      if (count.total >= LARGE_BODIES.perProcess || mine >= LARGE_BODIES.perUser) throw new TooManyLargeBodies();
      count.total++;
      count.byUser.set(userId, mine + 1);
      held = true;
    },
    release() {
      if (!held) return;
      held = false;
      count.total--;
      const mine = (count.byUser.get(userId) ?? 1) - 1;
      if (mine > 0) count.byUser.set(userId, mine);
      else count.byUser.delete(userId);
    },
  };
}
