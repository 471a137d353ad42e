import { config } from "@/lib/config";
import { AppError, ERROR_STATUS, type ErrorCode } from "./index";
import { log } from "@/lib/log";
import { errorFacts } from "@/lib/redact";

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
