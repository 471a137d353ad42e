// The closed set of error codes (docs/interface.md, Errors), confirmation_required among
// them. Every surface maps these once: REST to statuses, MCP to tool results.
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  plan_required: 403,
  account_incomplete: 403,
  publishing_not_allowed: 403,
  confirmation_required: 403,
  unknown_operation: 404,
  not_found: 404,
  method_not_allowed: 405,
  action_failed: 422,
  rate_limited: 429,
  internal_error: 500,
  temporarily_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export type ErrorDetail = { path: string; message: string };

export type Confirmation = {
  id: string;
  url: string;
  expires_at: string;
  action: {
    operation: string;
    type: string;
    id: string;
    title: string;
    scheduled_for: string | null;
    /** The account it goes to, as the owner is shown it (absent: no account yet, or an older approval). */
    account?: {
      id: string;
      name: string | null;
      handle: string | null;
      kind: "person" | "organization";
      /** The network it is on (linkedin, x, bluesky); absent in approvals asked for before networks were named. */
      network?: string;
    };
  };
  /** The plan the request waits in (the call's `plan` label): the review where it is decided with the plan's other actions. */
  plan?: { id: string; label: string; url: string };
};

/** The page the owner decides on: the plan's review when the request is part of one, else its own page. */
export const decisionPage = (c: Confirmation) => c.plan?.url ?? c.url;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    readonly details?: ErrorDetail[],
    readonly confirmation?: Confirmation,
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** A missing, unknown or revoked token (401); invalidToken when one was sent (RFC 6750's invalid_token). */
export class Unauthorized extends AppError {
  constructor(
    message: string,
    readonly invalidToken: boolean,
  ) {
    super("unauthorized", message, "Sign in again through the app's OAuth flow (or issue a new token) and send it as Authorization: Bearer <token>.");
  }
}

/** The one message for an id that is missing or not the caller's: they must look the same. */
export function notFound(type: string): AppError {
  return new AppError(
    "action_failed",
    `No ${type} with that id exists in your account.`,
    "Check the id and type; search_content lists your items with their ids.",
  );
}

/** The caller gave up on a call (Ctx.signal) before its result was saved. */
export function cancelled(): AppError {
  return new AppError("action_failed", "The call was cancelled before it finished, so nothing was saved or charged.");
}

export function invalid(details: ErrorDetail[], message = "The request body does not match the operation's schema."): AppError {
  return new AppError("invalid_request", message, "Fix the fields listed in details and send the request again.", details);
}
