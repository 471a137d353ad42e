import { networkOfDraft, type PlatformName } from "@/lib/domain/networks";
import type { PublishProgress } from "@/drizzle/schema/draft-columns";

export type { PlatformName, PublishProgress };

// The Platform port's contract: what the domain asks a network to publish, and how a network
// says it failed. The adapters (lib/adapters/platforms: sandbox, LinkedIn, X) implement it; the domain
// reads it without importing any of them.

/** One stored image or PDF of the owner's, as a platform needs it. */
export type MediaItem = {
  /** The media id of this service (the key of `PublishProgress.media`). */
  id: string;
  contentType: string;
  altText: string | null;
  /** An image's frames (more than one: an animation); null when not counted (older uploads). */
  frames: number | null;
  /** Read when the platform needs them, so a resumed publish never loads what is already uploaded. */
  bytes: () => Promise<Uint8Array>;
};

/** Part 0 is the post or first tweet; further parts are thread replies, in order. */
export type PublishPart = { text: string; media: MediaItem[] };

/**
 * What a platform is asked to publish: one draft, as its owner wrote it, and what of it
 * already reached the platform. An adapter calls `onProgress` after EACH part posted and
 * each medium uploaded, and waits for it: it stores the progress before the next platform
 * call, so a resumed publish (retry, publish_now after a failure) never sends anything twice.
 * It throws when the draft is no longer this attempt's (its claim was taken): the adapter
 * lets that through and makes no further call.
 */
export type PublishRequest = {
  userId: string;
  draftType: "post" | "tweet";
  draftId: string;
  /** The text of part 0 (the body). */
  text: string;
  parts: PublishPart[];
  /** A PDF shown as a document (LinkedIn posts only; never together with images). */
  document: { media: MediaItem; title: string } | null;
  /** A LinkedIn post's link card (article content), as approved; null: none (no link, media, or the page could not be read). */
  linkCard?: { source: string; title: string; description: string; image: string | null } | null;
  /** What earlier attempts already posted and uploaded (never modified in place by adapters). */
  progress: PublishProgress;
  onProgress: (progress: PublishProgress) => Promise<void>;
  /** When this attempt began (the ports' clock): LinkedIn's default API version follows it. */
  now: Date;
};

export type Published = { postId: string; url: string | null };

/** A draft's first comment, once its post is out: on the post (LinkedIn), or replying to its last part (X). */
export type CommentRequest = {
  userId: string;
  draftType: "post" | "tweet";
  draftId: string;
  /** The network's id of the post commented on (a thread: its last part). */
  on: string;
  text: string;
  now: Date;
};

/**
 * How a publish failed, which decides what happens next (docs/interface.md, Publishing):
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
    /** The network's daily cap is spent: `retryAt` is hours away, past any short retry. */
    readonly dailyCap = false,
  ) {
    super(message);
    this.name = "PublishError";
  }
}

/**
 * The network says the text is already on the account (X's 403 duplicate, LinkedIn's
 * DUPLICATE_POST): failed, unless an earlier attempt of the same draft ended in an error that
 * may have hidden a created post (publishing.ts).
 */
export class DuplicateRefusal extends PublishError {
  constructor(readonly said: string) {
    super("failed", `${said}; nothing new was posted.`);
  }
}

/** A published post's engagement as its network counts it; null: a number the network does not give. */
export type Engagement = {
  impressions: number | null;
  likes: number | null;
  replies: number | null;
  reposts: number | null;
  /** Posts quoting it (X, Bluesky); a repost with words of its own on LinkedIn counts as a repost there. */
  quotes: number | null;
  clicks: number | null;
};

/** One post's read: its numbers, or why there are none (a refusal, a missing permission, a deleted post). */
export type EngagementRead = { metrics: Engagement } | { note: string };

/** Posts of one account whose engagement is read together (X: up to 100 a request). */
export type MetricsRequest = { posts: { postId: string; publishedAt: Date }[]; now: Date };

/** A published post read back (a receipt). */
export type ReceiptRequest = { postId: string; now: Date };

/**
 * What reading a published post back found: still there; gone (the network no longer has it:
 * `said` is what it answered); or not known (a refusal, an outage: `reason`), which changes nothing.
 */
export type Receipt = { state: "confirmed" } | { state: "gone"; said: string } | { state: "unchecked"; reason: string };

/** What one harmless read of the network said about a connection (Check connection). */
export type Probe = { reachable: boolean; detail: string };

/** One interface for the sandbox, LinkedIn and X. */
export interface Platform {
  readonly name: PlatformName;
  /** "sandbox" or "linkedin" / "x": shown in logs and reasons. */
  readonly kind: string;
  publish(req: PublishRequest): Promise<Published>;
  /** Posts a first comment: one call, never repeated by the adapter. */
  comment(req: CommentRequest): Promise<Published>;
  /** One harmless read as the connected account (X: GET /2/users/me; LinkedIn: GET /v2/userinfo). */
  probe(): Promise<Probe>;
  /** Reads published posts' engagement: an answer for each post id asked for. Never throws. */
  metrics(req: MetricsRequest): Promise<Map<string, EngagementRead>>;
  /** Reads one published post back; a network without it is not read back. Never throws. */
  receipt?(req: ReceiptRequest): Promise<Receipt>;
}

export const platformOf = (draftType: "post" | "tweet"): PlatformName => networkOfDraft(draftType).platform;
