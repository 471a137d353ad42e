import { createHmac } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { authSecret } from "@/lib/transports/auth/secret";
import { db } from "@/lib/adapters/db";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import type { Caller, Ctx } from "@/lib/domain/context";
import { appTrustsForms } from "@/lib/domain/approvals/elicitations";
import { sha256 } from "@/lib/domain/hash";
import { decisionPage, type Confirmation } from "@/lib/core/errors";
import type { Decision } from "@/lib/operations/run";
import { approvalState } from "./approval-state";
import { confirmationForm } from "./elicitation";
import { notApproved } from "./legacy-confirm";

// Confirmation on protocol 2026-07-28 (docs/interface.md, Confirmation, point 4): a call that needs the owner's approval
// answers InputRequiredResult with a URL-mode elicitation of the approval page (or, for an app
// the owner trusts, a form in the client's window) and a signed requestState naming the
// approval. The client's retry carries the state back; the call then
// completes once the owner approved on the page. The state is bound to the user and app (a
// foreign one fails verification), to the tool and its arguments, and to one approval (once
// that is spent, the state is spent too).

/** The key of the embedded request in inputRequests / inputResponses. */
export const APPROVAL_KEY = "approval";
/** How long a retry holds its request open for a decision not yet made, before asking again. */
const RETRY_WAIT_MS = 20_000;
const POLL_MS = 300;

/** User, app, tool, arguments hash, approval id; f: the server sent a form (trusted app), not the page. */
type State = { u: string; a: string; t: string; h: string; ap: string; f?: 1 };

let codec: { secret: string; codec: ReturnType<typeof createRequestStateCodec<State>> } | undefined;
function stateCodec() {
  // A key of its own, derived from AUTH_SECRET: every process of a deployment shares it.
  const secret = authSecret();
  if (codec?.secret !== secret)
    codec = { secret, codec: createRequestStateCodec<State>({ key: createHmac("sha256", secret).update("mcp-request-state").digest(), ttlSeconds: 600 }) };
  return codec.codec;
}

const argsHash = (tool: string, args: Record<string, unknown>) => {
  const { confirmation_id: _ignored, ...rest } = args;
  return sha256({ tool, args: rest });
};

/** The SDK's verify hook: a bad MAC, an expired state or another user's or app's answers -32602 before the handler runs. */
export function requestStateVerifier(caller: Caller) {
  return async (state: string, ctx: ServerContext): Promise<State> => {
    const p = await stateCodec().verify(state, ctx);
    if (p.u !== caller.userId || p.a !== caller.appId) throw new Error("bind");
    return p;
  };
}

const invalidState = (why: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid requestState: ${why}`);

const approvalStatus = async (caller: Caller, id: string) => (await approvalState(caller, id))?.status;

/** The elicitation modes this request's client declared (an empty elicitation object means forms). */
function clientSupports(ctx: ServerContext, mode: "form" | "url"): boolean {
  const caps = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    { elicitation?: Record<string, unknown> } | undefined;
  const e = caps?.elicitation;
  if (!e) return false;
  if (!("form" in e) && !("url" in e)) return mode === "form";
  return Boolean(e[mode]);
}

async function waitForDecision(caller: Caller, id: string, signal: AbortSignal): Promise<string | undefined> {
  const deadline = Date.now() + RETRY_WAIT_MS;
  let status = await approvalStatus(caller, id);
  while (status === "pending" && Date.now() < deadline && !signal.aborted) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    status = await approvalStatus(caller, id);
  }
  return status;
}

/** What the client shows beside the approval page's link (a plan's review, when the call named a plan). */
export const approvalMessage = (caller: Caller, c: Confirmation) =>
  `${caller.appName} asks to ${c.action.operation.replace(/_/g, " ")} the ${c.action.type} "${c.action.title}"` +
  (c.plan
    ? `, part of its plan "${c.plan.label}". ` +
      "Open this page of your Contentio account to see every action of the plan and approve or decline them, then continue."
    : `. Open this page of your Contentio account to see the exact action and approve or deny it, then continue.`);

type Answer = ReturnType<typeof inputResponse>;

/**
 * A form answered in the client approves only for an app the owner trusts, and only as the
 * answer to the form this server sent for this approval (the signed state says so); the
 * owner's decision is recorded as on the legacy path (decideApproval, pending only: once).
 */
async function takeFormAnswer(caller: Caller, approvalId: string, answer: Answer) {
  if (answer.kind !== "elicit") return; // not answered: asked again below
  const d = await db();
  const approve = answer.action === "accept" && answer.content?.confirm === true && (await appTrustsForms(d, caller));
  await decideApproval(d, caller.userId, approvalId, approve ? "approved" : "denied");
}

/**
 * Reads a retried call's requestState and inputResponses, and returns the arguments to run
 * (naming the state's approval) and the confirm hook of a 2026-07-28 call.
 */
export async function modernConfirm(caller: Caller, tool: string, args: Record<string, unknown>, ctx: ServerContext) {
  const state = ctx.mcpReq.requestState<State>();
  const hash = argsHash(tool, args);
  let declined = false;
  if (state) {
    if (state.t !== tool || state.h !== hash) throw invalidState("it was issued for another call.");
    const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_KEY);
    if (state.f && (await approvalStatus(caller, state.ap)) === "pending") await takeFormAnswer(caller, state.ap, answer);
    const status = await approvalStatus(caller, state.ap);
    if (status === "used") throw invalidState("it was already used.");
    if (status === "denied") throw notApproved();
    // The person would not open the page: as on 2025-11-25, the link stays good and is the answer.
    declined = !state.f && answer.kind === "elicit" && answer.action !== "accept";
  }
  const confirm = async (c: Confirmation, opCtx: Ctx): Promise<Decision> => {
    // The state's approval is no longer open (spent by a concurrent retry, or expired): this state is done.
    if (state && c.id !== state.ap) throw invalidState("its approval is no longer open.");
    if (declined) return "not_now";
    if (state && !state.f) {
      const status = await waitForDecision(caller, c.id, ctx.mcpReq.signal);
      if (status === "denied") throw notApproved();
      if (status === "approved") return "approved";
    }
    const form = clientSupports(ctx, "form") && (await appTrustsForms(opCtx.db, caller));
    if (!form && !clientSupports(ctx, "url")) return "not_now";
    const request = form
      ? inputRequired.elicit((await confirmationForm(opCtx.db, caller, c)) as never)
      : inputRequired.elicitUrl({ url: decisionPage(c), message: approvalMessage(caller, c) });
    const requestState = await stateCodec().mint({ u: caller.userId, a: caller.appId, t: tool, h: hash, ap: c.id, ...(form ? { f: 1 } : {}) });
    // The call ends here, asking: the client's retry carries the state back.
    const asked: InputRequiredResult = inputRequired({ inputRequests: { [APPROVAL_KEY]: request }, requestState });
    return { stop: asked };
  };
  return { args: state ? { ...args, confirmation_id: state.ap } : args, confirm };
}
