import type { Db } from "@/lib/adapters/db";
import type { Ports } from "./ports";
import type { Plan } from "@/drizzle/schema";

export type Permission = "content:read" | "content:write" | "content:publish" | "analytics:read";

/** The signed-in user as every operation sees it. */
export type Caller = {
  userId: string;
  email: string;
  name: string | null;
  image: string | null;
  plan: Plan;
  accountComplete: boolean;
  timezone: string;
  publishingAllowed: boolean;
  appId: string;
  appName: string;
  /** OAuth scopes granted to the token (email, profile, offline_access). */
  scopes: string[];
  /**
   * The owner acting in person in the owner's pages (set only by their server actions,
   * after the session and CSRF checks; never from a token). The page itself confirmed the
   * action, so no approval row is needed and the switch for connected apps does not apply.
   */
  inPerson?: true;
};

/** What a domain function is given: the caller, the database and the outside world (ports). */
export type Ctx = {
  db: Db;
  caller: Caller;
  /** ports.clock, at hand. */
  now: () => Date;
  ports: Ports;
  requestId: string;
  /** Names a specific approval on the repeated call of a confirmed action (optional). */
  confirmationId?: string;
  /** The plan label of a confirmed action's call: its approval waits in that plan's review (approvals/plans.ts). */
  plan?: string;
  /**
   * For the owner in person: the hash of the draft's content (contentHashOf) as the page
   * showed it. The page confirms only what it showed, so an action on a draft that has
   * changed since (an app may edit it between the page's load and the click) is refused.
   */
  shown?: string;
  /**
   * Aborted when the caller gave up on the call (an MCP client cancelled its request or task):
   * a long call then saves nothing and charges nothing (stillWanted, at its write).
   */
  signal?: AbortSignal;
};
