import { networkOfDraft, type PlatformName } from "@/lib/networks";

export type { PlatformName };

/** What a platform is asked to publish: one draft, as its owner wrote it. */
export type PublishRequest = {
  userId: string;
  draftType: "post" | "tweet";
  draftId: string;
  text: string;
};

export type Published = { postId: string; url: string | null };

/**
 * How a publish failed, which decides what happens next (contract section 7):
 * - "retry": known to have posted nothing (429, 5xx, expired token that a refresh may fix);
 *   retried with backoff for up to 30 minutes.
 * - "failed": refused for good (duplicate, revoked token, invalid content); never retried.
 * - "unknown": the request may have reached the platform (timeout, connection cut after
 *   sending); never retried blindly, the owner is told to check.
 */
export type FailureKind = "retry" | "failed" | "unknown";

export class PublishError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** When the platform said when to come back (429 x-rate-limit-reset, Retry-After). */
    readonly retryAt?: Date,
  ) {
    super(message);
    this.name = "PublishError";
  }
}

/** One interface for the sandbox, LinkedIn and X. */
export interface Platform {
  readonly name: PlatformName;
  /** "sandbox" or "linkedin" / "x": shown in logs and reasons. */
  readonly kind: string;
  publish(req: PublishRequest): Promise<Published>;
}

export const platformOf = (draftType: "post" | "tweet"): PlatformName => networkOfDraft(draftType).platform;
