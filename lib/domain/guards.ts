import { AppError } from "@/lib/core/errors";
import type { Caller } from "./context";

// The authorisation conditions (docs/interface.md, Permissions), in the order every surface
// applies them. They are the conditions of connected apps: the owner in person, on their own
// pages, is held to their plan's allowances where a page spends them, and onboarding guards the
// pages themselves.

export function requirePlan(c: Caller) {
  if (c.inPerson) return;
  if (c.plan === "none") {
    throw new AppError(
      "plan_required",
      "This account has no active paid plan; the API needs Plus, Premium or Creator.",
      "The account owner can choose a plan in Settings > Billing.",
    );
  }
}

export function requireCompleteAccount(c: Caller) {
  if (c.inPerson) return;
  if (!c.accountComplete) {
    throw new AppError(
      "account_incomplete",
      "The account setup is not finished (name, time zone and voice).",
      "The account owner should sign in to the web app and finish onboarding, then retry.",
    );
  }
}

const PUBLISHING_HINT =
  'The account owner can allow it in Settings > Connections > AI apps ("Allow connected ' +
  'apps to publish, schedule and delete"); each action still needs their approval.';

/** Publish, schedule, delete and editing a scheduled draft need the owner's switch on. */
export function requirePublishing(c: Caller, what = "Publishing, scheduling and deleting") {
  if (c.inPerson) return; // the switch governs connected apps, not the owner in person
  if (!c.publishingAllowed) {
    throw new AppError("publishing_not_allowed", `${what} by connected apps is not allowed on this account yet.`, PUBLISHING_HINT);
  }
}
