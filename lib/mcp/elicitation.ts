import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { and, eq } from "drizzle-orm";
import { db } from "@/lib/db";
import { decideApproval } from "@/lib/domain/confirmations";
import type { Caller } from "@/lib/domain/context";
import type { Confirmation } from "@/lib/errors";
import { approvals } from "@/drizzle/schema";
import { isUuid } from "@/lib/ids";

// Confirmation of an exact action by MCP form elicitation (contract section 4.4). The
// elicitation request's id names the approval ("confirm:<approval id>:<nonce>"), so the
// client's answer, whichever server process it reaches, is recorded on that approval; the
// process waiting in the tool call watches the approval row.
const PREFIX = "confirm:";
const POLL_MS = 300;

export function confirmationForm(c: Confirmation, appName: string) {
  const a = c.action;
  const when = a.scheduled_for ? ` at ${a.scheduled_for} (UTC)` : "";
  const verb = { delete_draft: "delete", publish_now: "publish now", schedule_content: "schedule" }[a.operation] ?? a.operation;
  return {
    message: `${appName} wants to ${verb} the ${a.type} "${a.title}"${when}. This acts on your real account${a.operation === "schedule_content" ? "" : " and cannot be undone"}. Approve this exact action?`,
    requestedSchema: {
      type: "object" as const,
      properties: { confirm: { type: "boolean" as const, title: `Yes, ${verb} it`, description: "Tick to approve exactly this action, once." } },
      required: ["confirm"],
    },
  };
}

/** Asks the user over the open tool-call stream; resolves true once the approval is approved. */
export async function askForApproval(
  transport: Transport,
  relatedRequestId: RequestId,
  confirmation: Confirmation,
  appName: string,
  signal: AbortSignal,
): Promise<boolean> {
  const id = `${PREFIX}${confirmation.id}:${Date.now().toString(36)}`;
  await transport.send(
    { jsonrpc: "2.0", id, method: "elicitation/create", params: confirmationForm(confirmation, appName) } as JSONRPCMessage,
    { relatedRequestId },
  );
  const d = await db();
  const deadline = new Date(confirmation.expires_at).getTime();
  while (!signal.aborted && Date.now() < deadline) {
    const [row] = await d.select({ status: approvals.status }).from(approvals).where(eq(approvals.id, confirmation.id));
    if (!row || row.status === "denied") return false;
    if (row.status === "approved") return true;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return false;
}

type Response = { id?: unknown; result?: { action?: string; content?: Record<string, unknown> }; error?: unknown; method?: unknown };

/** True when the body holds only JSON-RPC responses (the client answering us). */
export function isResponseBatch(body: unknown): body is Response[] | Response {
  const list = Array.isArray(body) ? body : [body];
  return list.length > 0 && list.every((m) => m && typeof m === "object" && !("method" in m) && "id" in m && ("result" in m || "error" in m));
}

/** Records the user's answers: accept with the box ticked approves, anything else denies. */
export async function recordAnswers(body: Response[] | Response, caller: Caller): Promise<void> {
  const d = await db();
  for (const m of Array.isArray(body) ? body : [body]) {
    if (typeof m.id !== "string" || !m.id.startsWith(PREFIX)) continue;
    const approvalId = m.id.slice(PREFIX.length).split(":")[0];
    if (!isUuid(approvalId)) continue;
    // Only the app that asked may answer for its own approval.
    const [own] = await d.select({ id: approvals.id }).from(approvals).where(and(eq(approvals.id, approvalId), eq(approvals.appId, caller.appId)));
    if (!own) continue;
    const accepted = m.result?.action === "accept" && m.result.content?.confirm === true;
    await decideApproval(d, caller.userId, approvalId, accepted ? "approved" : "denied");
  }
}
