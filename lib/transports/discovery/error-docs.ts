import type { ErrorCode } from "@/lib/core/errors";

/** What each error code means and what to do: the error page and llms.txt both read this. */
export const ERROR_DOCS: Record<ErrorCode, { when: string; fix: string }> = {
  invalid_json: { when: "The body is not valid JSON (or is empty).", fix: "Send a JSON object; {} when no field is needed." },
  invalid_request: {
    when:
      "The body does not match the operation's schema: a missing or unknown field, a wrong type " +
      "or length, a wrong Content-Type, a malformed Idempotency-Key, or a body over 256 KiB.",
    fix: "details lists one entry per problem (path and message); fix those and resend.",
  },
  unauthorized: {
    when: "The access token is missing, malformed, expired, revoked (the app was disconnected) or issued for another resource.",
    fix: "Run the OAuth flow again; the WWW-Authenticate header names the protected-resource metadata that says where.",
  },
  plan_required: { when: "The account has no active paid plan (Plus, Premium or Creator).", fix: "The account owner chooses a plan." },
  account_incomplete: {
    when: "The account owner has not finished onboarding: name, time zone and voice (sample posts, tone, niche, traits, content pillars).",
    fix: "The owner signs in to the web app and finishes onboarding.",
  },
  publishing_not_allowed: {
    when: "Publish, schedule, delete, or editing a scheduled draft, before the owner allowed connected apps to do so.",
    fix: 'The owner turns on "Allow connected apps to publish, schedule and delete" in Settings > Connections > AI apps.',
  },
  confirmation_required: {
    when:
      "Publish, schedule, delete and changing what a scheduled draft will post (title, text, images, document, thread parts) " +
      "need the owner's approval of that exact action. error.confirmation carries the approval's id, url, expiry and the action.",
    fix:
      "Ask the user to open error.confirmation.url and approve; then repeat the same call (optionally with " +
      "confirmation_id). Approvals expire after 10 minutes, are used once, and stop matching if the draft changes. " +
      "A call with a plan label waits in that plan's review: error.confirmation.plan.url opens it.",
  },
  unknown_operation: { when: "No operation has this name.", fix: "GET the base URL for the list of operations." },
  not_found: { when: "No API endpoint at this address (including versions that do not exist yet, such as /api/v2).", fix: "Use POST /api/v1/{operation}." },
  method_not_allowed: { when: "Operations accept only POST.", fix: "Send POST with a JSON body." },
  action_failed: {
    when:
      "The request was valid but the action could not be completed: an id that is not in your account, " +
      "a draft in a state that does not allow it, a reused Idempotency-Key, an exhausted allowance.",
    fix: "The message says why and the hint what to do.",
  },
  rate_limited: {
    when: "Too many requests: per user, shared by REST and MCP, over a sliding 60-second window (Plus 30, Premium and Creator 60 a minute).",
    fix: "Wait the number of seconds in Retry-After. RateLimit and RateLimit-Policy headers show the budget on every answer.",
  },
  internal_error: {
    when: "An unexpected error on the service's side; nothing internal is disclosed.",
    fix: "Reads are safe to retry. Report the X-Request-Id header if it persists.",
  },
  temporarily_unavailable: {
    when: "The service cannot reach its database right now, or is reading as many uploads as it takes at once (nothing was stored).",
    fix: "Retry later with backoff (Retry-After).",
  },
};
