import type { JSONRPCMessage, RequestId, Transport } from "@modelcontextprotocol/server";
import type { Db } from "@/lib/adapters/db";
import { platformAccounts, tweetsDeletedWith } from "@/lib/domain/accounts/connections";
import { accountLabel } from "@/lib/domain/accounts/accounts";
import { actsAt } from "@/lib/domain/approvals/approvals";
import { attachmentUrls, mediaMeta } from "@/lib/domain/media/media";
import type { Caller } from "@/lib/domain/context";
import {
  answerElicitation,
  appTrustsForms,
  approvalToShow,
  cancelWaiting,
  closeElicitation,
  openElicitation,
  waitState,
  type WaitState,
} from "@/lib/domain/approvals/elicitations";
import { decisionPage, type Confirmation } from "@/lib/core/errors";
import { networkOfDraft } from "@/lib/domain/networks";
import { findOperation } from "@/lib/operations/registry";
import { destination, type Destination } from "@/lib/adapters/platforms/destination";
import { config } from "@/lib/core/config";
import { xFactsOf } from "@/lib/domain/networks/x/pricing";
import { formatInZone, formatUtc } from "@/lib/core/time";
import { attachmentLines, proposedAttachmentLines } from "./attachments";
import { cancelCall } from "../in-flight";
import type { McpSession } from "../protocol-versions/session";

// Confirmation of an exact action over MCP (docs/interface.md, Confirmation, point 4). By default the owner
// decides on the service's own approval page, which a client with URL-mode elicitation opens
// for them; a form in the client's window counts only for an app the owner trusted. Either way
// the elicitation's JSON-RPC id names a row the server stored ("confirm:<id>:<secret>"), so an
// answer the server did not ask for, from another session, or given twice, changes nothing;
// and the client's answer may reach any server process.
const PREFIX = "confirm:";
const POLL_MS = 300;
/** The longest a tool call holds its request open for the owner's decision. */
export const MAX_WAIT_MS = 5 * 60 * 1000;
const PROGRESS_EVERY_MS = 15_000;

export type ApprovalMode = "form" | "url";

/** A form only for an app the owner trusts; else the approval page, when the client can open it. */
export async function approvalMode(db: Db, caller: Caller, session: McpSession): Promise<ApprovalMode | null> {
  if (!session.id) return null;
  if (session.form && (await appTrustsForms(db, caller))) return "form";
  return session.url ? "url" : null;
}

/** How the action's operation asks for approval (its definition's `approval`); its name when it says nothing. */
const approvalOf = (c: Confirmation) => findOperation(c.action.operation)?.approval ?? { verb: c.action.operation };

/** What X charges for it and the replies X may refuse, as the approval page says them. */
function xFacts(dest: Destination, operation: string, shown: Awaited<ReturnType<typeof approvalToShow>>): string[] {
  if (!shown) return [];
  const content = shown.proposed ? { body: shown.proposed.body, attachments: shown.proposed.attachments } : shown;
  const texts = { body: content.body, thread: content.attachments?.thread.map((p) => p.text), firstComment: content.attachments?.first_comment };
  const x = xFactsOf(dest, operation, texts, config());
  return x ? [`Cost: ${x.sentence}`, ...(x.replies ? [x.replies.message] : [])] : [];
}

/** The form: everything the owner would see on the approval page, not only a title. */
export async function confirmationForm(db: Db, caller: Caller, c: Confirmation) {
  const a = c.action;
  const shown = await approvalToShow(db, caller.userId, c.id);
  const type = a.type === "tweet" ? "tweet" : "post";
  const provider = networkOfDraft(type).provider;
  const handle = a.account
    ? accountLabel(a.account)
    : (await platformAccounts(db, caller.userId)).find((p) => p.provider === provider && p.state !== "not_connected")?.handle;
  const dest = destination(type, handle, a.account?.network);
  const { verb, irreversible } = approvalOf(c);
  const at = actsAt(a);
  const when = at ? `${formatInZone(new Date(at), caller.timezone)}${caller.timezone === "UTC" ? "" : ` (${formatUtc(new Date(at))})`}` : "now";
  const lines = [
    `${caller.appName} wants to ${verb} this ${a.type}.`,
    `Account: ${dest.account}`,
    `When: ${when}`,
    `Title: ${a.title}`,
    ...xFacts(dest, a.operation, shown),
    "",
    shown?.proposed ? "Current text:" : "Full text:",
    shown?.body ?? "",
  ];
  // Every image, the document and each thread part (older approvals: the one image).
  const meta = await mediaMeta(db, caller.userId, attachmentUrls(shown?.attachments, shown?.proposed?.attachments));
  if (shown?.attachments) lines.push(...attachmentLines(shown.attachments, meta));
  else if (shown?.imageUrl) lines.push("", `Image: ${shown.imageUrl}`);
  const tweets = await tweetsDeletedWith(db, caller.userId, a);
  if (tweets.length) lines.push("", "Its tweets are deleted with it:", ...tweets.map((t) => `- (${t.status}) ${t.body}`));
  if (shown?.proposed) {
    lines.push("", "Proposed text:", shown.proposed.body);
    if (shown.proposed.attachments) lines.push(...proposedAttachmentLines(shown.attachments, shown.proposed.attachments, meta));
    else if (shown.proposed.image_url !== shown.imageUrl) lines.push("", `Proposed image: ${shown.proposed.image_url ?? "none"}`);
  }
  lines.push(
    "",
    `This acts on ${dest.sandbox ? "the sandbox, not a real account" : "your real account"}` +
      `${irreversible ? " and cannot be undone" : ""}. Approve this exact action?`,
  );
  return {
    message: lines.join("\n"),
    requestedSchema: {
      type: "object" as const,
      properties: { confirm: { type: "boolean" as const, title: `Yes, ${verb} it`, description: "Tick to approve exactly this action, once." } },
      required: ["confirm"],
    },
  };
}

// A call that named a plan opens the plan's review, where its other actions wait too.
const urlRequest = (c: Confirmation, elicitationId: string, appName: string) => ({
  mode: "url" as const,
  elicitationId,
  url: decisionPage(c),
  message:
    `${appName} asks to ${approvalOf(c).verb} the ${c.action.type} "${c.action.title}"` +
    (c.plan
      ? `, part of its plan "${c.plan.label}". Open this page of your Contentio account to see every action of the plan and approve or decline them.`
      : `. Open this page of your Contentio account to see the exact action and approve or deny it.`),
});

export type WaitContext = {
  db: Db;
  caller: Caller;
  session: McpSession;
  transport: Transport;
  toolRequestId: RequestId;
  progressToken?: string | number;
  signal: AbortSignal;
};

export type ApprovalOutcome = WaitState | "busy" | "timeout";

/**
 * Asks over the open tool-call stream and waits for the decision: at most MAX_WAIT_MS (and
 * never past the approval's expiry), ended early by a decline, a cancellation or a closed
 * connection, and only MAX_WAITING_PER_USER waits per user at once.
 */
export async function askForApproval(w: WaitContext, c: Confirmation, mode: ApprovalMode): Promise<ApprovalOutcome> {
  const now = new Date();
  const deadline = Math.min(new Date(c.expires_at).getTime(), now.getTime() + MAX_WAIT_MS);
  const el = await openElicitation(
    w.db,
    { approvalId: c.id, caller: w.caller, session: w.session.id, toolRequestId: w.toolRequestId, mode, expiresAt: new Date(deadline) },
    now,
  );
  if (!el) return "busy";
  try {
    const params = mode === "form" ? await confirmationForm(w.db, w.caller, c) : urlRequest(c, el.id, w.caller.appName);
    const send = (m: object) => w.transport.send(m as JSONRPCMessage, { relatedRequestId: w.toolRequestId });
    await send({ jsonrpc: "2.0", id: `${PREFIX}${el.id}:${el.secret}`, method: "elicitation/create", params });
    let lastProgress = Date.now();
    for (let tick = 1; !w.signal.aborted && Date.now() < deadline; tick++) {
      const state = await waitState(w.db, el.id);
      if (state !== "waiting") {
        if (state === "approved" && mode === "url")
          await send({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: el.id } });
        return state;
      }
      // Clients that asked for progress reset their request timeout on it while the owner decides.
      if (w.progressToken !== undefined && Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        await send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: w.progressToken, progress: tick, message: "Waiting for the owner's decision" },
        });
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return w.signal.aborted ? "cancelled" : "timeout";
  } finally {
    await closeElicitation(w.db, el.id);
  }
}

type Message = { id?: unknown; method?: unknown; params?: { requestId?: unknown }; result?: { action?: unknown; content?: Record<string, unknown> } };

/** True when the body holds only JSON-RPC responses (the client answering us). */
export function isResponseBatch(body: unknown): body is Message[] | Message {
  const list = Array.isArray(body) ? body : [body];
  return list.length > 0 && list.every((m) => m && typeof m === "object" && !("method" in m) && "id" in m && ("result" in m || "error" in m));
}

/** Takes the client's answers to elicitations this server sent to this session; ignores the rest. */
export async function recordAnswers(db: Db, body: Message[] | Message, caller: Caller, session: McpSession): Promise<void> {
  if (!session.id) return;
  for (const m of Array.isArray(body) ? body : [body]) {
    if (typeof m.id !== "string" || !m.id.startsWith(PREFIX)) continue;
    const [id, secret] = m.id.slice(PREFIX.length).split(":");
    if (!id || !secret) continue;
    await answerElicitation(db, caller, session.id, { id, secret }, m.result ?? {});
  }
}

/** notifications/cancelled ends the named call in this process, and its wait on the owner in any. */
export async function recordCancellations(db: Db, body: unknown, caller: Caller, session: McpSession): Promise<void> {
  if (!session.id) return;
  for (const m of (Array.isArray(body) ? body : [body]) as Message[]) {
    const requestId = m?.params?.requestId;
    if (m?.method === "notifications/cancelled" && (typeof requestId === "string" || typeof requestId === "number")) {
      cancelCall(caller, session.id, requestId);
      await cancelWaiting(db, caller, session.id, requestId);
    }
  }
}
