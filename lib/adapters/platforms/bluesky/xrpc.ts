import { redactSecrets } from "@/lib/core/redact";
import { PublishError } from "@/lib/domain/networks/platform";
import { commonFailure, send } from "../http";
import type { Answer } from "../request";

// XRPC, the AT Protocol's HTTP calls (atproto.com/specs/xrpc), over the platforms' HTTP client:
// a query is a GET of /xrpc/{NSID} with its parameters in the query string, a procedure a POST
// with a JSON (or raw) body. An error answers with its HTTP status and `{ error, message }`,
// `error` being the lexicon's name for it (InvalidRequest, ExpiredToken, RateLimitExceeded...).

export const NET = "Bluesky";

export type XrpcCall = {
  /** The query's parameters; an array is the parameter repeated, once a value (the XRPC specification's arrays). */
  params?: Record<string, string | string[]>;
  json?: unknown;
  bytes?: { data: Uint8Array; type: string };
  token?: string;
  /** A procedure without input (refreshSession, deleteSession): a POST with no body. */
  procedure?: boolean;
  /** The server is the account's own PDS (named by its DID document): its addresses are checked. */
  guarded?: boolean;
};

/** An XRPC call made as the account, on its PDS: the session's credentials are added (an app password's bearer JWT, or OAuth's DPoP-bound token). */
export type Signed = (nsid: string, c?: Omit<XrpcCall, "token" | "guarded">) => Promise<Answer>;

/** The HTTP request of an XRPC call: its path and query, method, headers and body. */
export function xrpcRequest(nsid: string, c: XrpcCall): { path: string; method: string; headers: Record<string, string>; body?: string | Uint8Array } {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(c.params ?? {})) for (const one of [v].flat()) query.append(k, one);
  const q = query.toString();
  const headers: Record<string, string> = {};
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  let body: string | Uint8Array | undefined;
  if (c.bytes) {
    headers["content-type"] = c.bytes.type;
    body = c.bytes.data;
  } else if (c.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(c.json);
  }
  const post = c.procedure || c.json !== undefined || c.bytes !== undefined;
  return { path: `/xrpc/${nsid}${q ? `?${q}` : ""}`, method: post ? "POST" : "GET", headers, body };
}

/** One XRPC call of `nsid` on `base`. Throws only a PublishError, when nothing or not all of it was answered (http.ts). */
export function xrpc(base: string, nsid: string, c: XrpcCall = {}): Promise<Answer> {
  const { path, ...init } = xrpcRequest(nsid, c);
  return send(NET, new URL(path, base).toString(), { ...init, guarded: c.guarded });
}

/** The error an XRPC answer names (its lexicon's name, or the HTTP status), with its message, fit to show. */
export async function xrpcError(res: Answer): Promise<{ error: string; message: string }> {
  const body = (await res.json().catch(() => null)) as { error?: unknown; message?: unknown } | null;
  const error = typeof body?.error === "string" ? body.error : `HTTP ${res.status}`;
  const message = typeof body?.message === "string" ? redactSecrets(body.message.slice(0, 500), 200) : "";
  return { error, message };
}

/** The access token is refused in a way a renewed one may fix (the PDS answers 400 ExpiredToken, or 401). */
export async function staleToken(res: Answer): Promise<boolean> {
  if (res.status === 401) return true;
  if (res.status !== 400) return false;
  const { error } = await xrpcError(res);
  return error === "ExpiredToken" || error === "InvalidToken";
}

/**
 * When a 429 says the limit resets: the PDS's `ratelimit-reset` (epoch seconds, the
 * IETF draft's RateLimit fields as atproto sends them), else what http.ts reads.
 */
function resetAt(res: Answer): Date | undefined {
  const reset = Number(res.headers.get("ratelimit-reset"));
  return Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : undefined;
}

/**
 * Why the PDS refused `what` (a post, an image upload), classified (contract section 7): a
 * rate limit is retried after its reset, server errors as every network's (http.ts), anything
 * else (InvalidRequest: a record the lexicon refuses; a deactivated account) fails for good.
 */
export async function refusal(res: Answer, what: string): Promise<PublishError> {
  if (res.status === 429) {
    const at = resetAt(res);
    return new PublishError("retry", `${NET} rate limit reached (429)${at ? `; it resets at ${at.toISOString()}` : ""}.`, at);
  }
  const common = await commonFailure(NET, res);
  if (common) return common;
  const { error, message } = await xrpcError(res);
  return new PublishError("failed", `${NET} refused the ${what} (${res.status} ${error}${message ? `: ${message}` : ""}).`);
}
