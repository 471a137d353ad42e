import type { ServerContext, Transport } from "@modelcontextprotocol/server";
import type { Caller, Ctx } from "@/lib/domain/context";
import { AppError, type Confirmation } from "@/lib/core/errors";
import type { Decision } from "@/lib/operations/run";
import { approvalMode, askForApproval } from "./elicitation";
import type { McpSession } from "../protocol-versions/session";

/** What asking the owner on a 2025-era request needs: the signed session and the open stream. */
export type LegacyContext = { session: McpSession; transport: Transport; signal: AbortSignal };

export const notApproved = () =>
  new AppError(
    "action_failed",
    "The user did not approve this action, so nothing was done.",
    "Ask the user what they want instead; do not repeat the call unless they ask for it.",
  );

/**
 * The confirm hook of a 2025-era tool call: ask right here when the client can open the
 * approval page (or show a form, for an app the owner trusts); otherwise the result is the
 * confirmation_required link.
 */
export function legacyConfirm(caller: Caller, legacy: LegacyContext | undefined, ctx: ServerContext, progressToken: string | number | undefined) {
  return async (c: Confirmation, opCtx: Ctx): Promise<Decision> => {
    if (!legacy) return "not_now";
    const mode = await approvalMode(opCtx.db, caller, legacy.session);
    if (!mode) return "not_now";
    const outcome = await askForApproval(
      { db: opCtx.db, caller, session: legacy.session, transport: legacy.transport, toolRequestId: ctx.mcpReq.id, progressToken, signal: legacy.signal },
      c,
      mode,
    );
    if (outcome === "denied") throw notApproved();
    // Not decided in time, cancelled, or too many waits: the link still works until it expires.
    return outcome === "approved" ? "approved" : "not_now";
  };
}
