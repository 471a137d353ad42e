import type { DraftType, PlatformName } from "@/lib/domain/networks";
import type { postDrafts, tweetDrafts } from "@/drizzle/schema";
import type { Ports } from "../ports";

// Publishing's vocabulary, read by the engine, the request it builds, the batch writer, the
// draft's history and its webhook events (types only, so that none of them imports another
// for a type).

/** A claimed row of either draft table (they share every column publishing reads). */
type DraftRow = typeof postDrafts.$inferSelect | typeof tweetDrafts.$inferSelect;
export type Claimed = DraftRow & { type: DraftType };
export type Outcome = (
  | { status: "published"; platform: PlatformName; postId: string; url: string | null }
  | { status: "retrying"; platform: PlatformName; reason: string; nextAttemptAt: Date; restartWindow?: boolean }
  // notSent: the claim was taken before a call and nothing went out after: it replaces only the sweep's `unknown`.
  | { status: "failed" | "unknown"; platform: PlatformName; reason: string; notSent?: true }
) & {
  /** X: the estimate of what this attempt's posts cost, in micro-dollars (lib/domain/spend). */
  cost?: number;
};

/** A publish attempt's outcome (publish_now, the scheduler, Inngest). */
export type AttemptOutcome = {
  userId: string;
  type: DraftType;
  id: string;
  status: "published" | "failed" | "unknown" | "retrying";
  /** The account it went to (or was to go to); null: the network's default. */
  accountId?: string | null;
  url?: string | null;
  reason?: string;
  /** X: the estimate of what the attempt's posts cost, in micro-dollars. */
  cost?: number;
};

/** What publishing needs of the outside world: the clock and the networks. */
export type PublishPorts = Pick<Ports, "clock" | "platforms" | "config">;
