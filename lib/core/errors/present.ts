import { config } from "@/lib/core/config";
import { AppError, ERROR_STATUS, Unauthorized, type ErrorCode } from "./index";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";

/** Where each code is explained; every error body links there. */
export const docsUrl = (code: ErrorCode) => `${config().origin}/docs/errors#${code}`;

// postgres.js / PostgreSQL codes that mean "the database cannot be reached right now".
const UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

export function isDatabaseUnavailable(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && typeof cur === "object" && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE.has(code) || code.startsWith("08"))) return true;
  }
  return false;
}

/**
 * What to log of an unexpected error: its kind and code (never a database's message, which
 * can quote users' data, nor a credential), a failed query's SQL without its parameters, and
 * the stack.
 */
function describeForLog(e: unknown): Record<string, unknown> {
  const frames =
    e instanceof Error
      ? (e.stack ?? "")
          .split("\n")
          .filter((l) => l.trimStart().startsWith("at "))
          .slice(0, 15)
          .join("\n")
      : undefined;
  const query = e instanceof Error && "query" in e && typeof e.query === "string" ? e.query : undefined;
  return { ...errorFacts(e), ...(query && { query }), ...(frames && { stack: frames }) };
}

/** Any thrown value as an AppError; unexpected ones are logged with the request id only. */
export function toAppError(e: unknown, requestId: string): AppError {
  if (e instanceof AppError) return e;
  if (isDatabaseUnavailable(e)) {
    log("warn", "database unavailable", { requestId, code: (e as { code?: string }).code });
    return new AppError(
      "temporarily_unavailable",
      "The service cannot reach its database right now.",
      "Retry later with backoff; nothing was changed by this request.",
    );
  }
  log("error", "unexpected error", { requestId, ...describeForLog(e) });
  return new AppError("internal_error", "Something went wrong on our side.", `Reads are safe to retry. If it keeps happening, report request id ${requestId}.`);
}

export function errorBody(e: AppError) {
  return {
    error: {
      code: e.code,
      message: e.message,
      ...(e.hint && { hint: e.hint }),
      docs: docsUrl(e.code),
      ...(e.details && { details: e.details }),
      ...(e.confirmation && { confirmation: e.confirmation }),
    },
  };
}

export const statusOf = (e: AppError) => ERROR_STATUS[e.code];

/** The protected-resource metadata URL (RFC 9728) of a resource served at `path`. */
export const resourceMetadataUrl = (path: string) => `${config().origin}/.well-known/oauth-protected-resource${path}`;

/** `WWW-Authenticate` for a 401: where to sign in, and invalid_token when a token was sent. */
export function wwwAuthenticate(e: Unauthorized, metadataUrl: string) {
  return `Bearer resource_metadata="${metadataUrl}"${e.invalidToken ? `, error="invalid_token", error_description="${e.message}"` : ""}`;
}

/** An error as an answer: the AppError it became, its status, its body and the headers it calls for. */
export type ErrorAnswer = { error: AppError; status: number; body: ReturnType<typeof errorBody>; headers: Record<string, string> };

/**
 * The one error presenter, for REST and MCP alike: any thrown value as the AppError it stands
 * for (anything unexpected logged with the request id and answered internal_error), its
 * status, its body, and the headers the error itself calls for: on a 401, WWW-Authenticate
 * naming the metadata of `resource` (the path of the API or of MCP; no header without it), and
 * Retry-After on a 503. REST sends it as it is; MCP sends it from its front, turns it into a
 * JSON-RPC error where its protocol has one, and inside a tool call sends the body as the
 * tool's error result.
 */
export function presentError(e: unknown, requestId: string, resource?: string): ErrorAnswer {
  const error = toAppError(e, requestId);
  const headers: Record<string, string> = {};
  if (error instanceof Unauthorized && resource) headers["WWW-Authenticate"] = wwwAuthenticate(error, resourceMetadataUrl(resource));
  if (error.code === "temporarily_unavailable") headers["Retry-After"] = "5";
  return { error, status: statusOf(error), body: errorBody(error), headers };
}
