import type { Config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import type { DraftType, NetworkName, NetworkSpec, PlatformName } from "@/lib/domain/networks";
import type { Platform } from "@/lib/domain/networks/platform";
import type { authAccounts } from "@/drizzle/schema";
import type { PublishingAccount } from "./accounts/accounts";

// The outside world as the domain sees it: configuration, the clock, the networks, the
// publishing engine's events, the writing model, mail, the work on uploads, the webhook
// sender, linked pages and images elsewhere. Declared here, by the
// domain that uses them; lib/adapters/ports.ts (the composition root) plugs the real adapters in once,
// and every Ctx carries them, so that a test passes fakes instead of reaching for process.env
// or a module's singleton.

type DraftRef = { type: DraftType; id: string; userId: string };

/** Schedule changes, told to the publishing engine (Inngest, when configured). */
export type Events = {
  scheduled: (d: DraftRef & { scheduledFor: Date; previous: Date | null; version: number }) => Promise<void>;
  unscheduled: (d: DraftRef & { scheduledFor: Date; version: number }) => Promise<void>;
  deleted: (d: DraftRef) => Promise<void>;
};

/**
 * A user's stored connection to a network (auth_accounts), as sign-in and token refreshes keep
 * it, with the account it posts as when asked for one (a person's own, or a page it administers).
 */
export type StoredConnection = typeof authAccounts.$inferSelect & { target?: PublishingAccount };

/**
 * What signing in to a network with the owner's own credentials gave (Bluesky: a handle and
 * an app password): the session's tokens and where the account is, never the password.
 */
export type PasswordSession = {
  /** The network's id of the account (a Bluesky DID). */
  accountId: string;
  handle: string;
  /** The server that holds the account (a Bluesky PDS). */
  serviceUrl: string;
  access_token: string;
  refresh_token: string;
  /** When the access token expires (epoch seconds), or null when it does not say. */
  expires_at: number | null;
};

/**
 * What signing in through a network's OAuth gave (Bluesky: atproto OAuth): a session as above,
 * with its scope and the DPoP key its tokens are bound to.
 */
export type OAuthNetworkSession = PasswordSession & { scope: string; token_type: string; dpop: NonNullable<StoredConnection["dpop"]> };

/**
 * The networks, as the domain asks about them. What follows from the stored connection alone
 * (its state, the permissions it lacks) is pure: lib/domain/networks and lib/domain/networks/scopes.
 */
export type Platforms = {
  /** Whether this deployment has the network's app credentials; without them the built-in sandbox stands in. */
  configured: (name: NetworkName) => boolean;
  /** The stored connection the user's account posts with (`accountId`, else the network's default), or null. */
  connection: (db: Db, userId: string, name: PlatformName, accountId?: string | null) => Promise<StoredConnection | null>;
  /**
   * The network a user's draft goes to, as `accountId` (else the network's default): the real
   * one when configured (refused without a usable connection), else the sandbox.
   */
  open: (db: Db, userId: string, name: PlatformName, accountId?: string | null) => Promise<Platform>;
  /**
   * Signs in to a network that takes the owner's handle and app password (Bluesky); refused
   * (invalid_request or action_failed, in the owner's words) when the network does not, and
   * rate_limited past the owner's (`owner`: their user id) attempts in a window.
   */
  signIn: (name: NetworkName, handle: string, password: string, owner: string) => Promise<PasswordSession>;
  /**
   * Starts signing in to a network through its OAuth for `owner` (Bluesky: the handle's PDS and
   * its authorization server): the address of that server's sign-in page. Counted as signIn's
   * attempts are.
   */
  authorize: (db: Db, name: NetworkName, handle: string, owner: string) => Promise<string>;
  /**
   * Finishes it with what the owner's browser came back with (`params`): only a sign-in
   * `owner` started, once. `keep` stores the session; when it refuses, the session is ended on
   * the network.
   */
  finishAuthorize: <T>(db: Db, name: NetworkName, params: URLSearchParams, owner: string, keep: (s: OAuthNetworkSession) => Promise<T>) => Promise<T>;
  /**
   * Ends a removed connection's session on its network, where the network offers that
   * (Bluesky's deleteSession), so its tokens stop working there too. Best effort: never throws.
   */
  signOut: (connection: StoredConnection) => Promise<void>;
};

/** An e-mail to one person, in plain text. */
export type Mail = { to: string; subject: string; text: string };

/** E-mail to the owner (lib/adapters/mail: SMTP when SMTP_URL is set). */
export type Mailer = {
  /** Whether mail can go out at all; without it the notification sweeps are not run. */
  configured: () => boolean;
  send: (m: Mail) => Promise<void>;
};

/** The image formats uploads keep, as sharp names them. */
export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

/** An image encoded again in its own format, or the bytes were another format (nothing encoded). */
export type ImageWork = { kind: "image"; data: Uint8Array; width: number; height: number; frames: number } | { kind: "other"; format: string | null };

/** A PDF's page count, or why it could not be read (`error`: "unreadable" or a reason). */
export type PdfPages = { pages?: number; error?: string; encrypted?: boolean };

/**
 * The heavy work on uploaded bytes, off the request's thread (lib/adapters/workers): images through
 * sharp on libuv's pool, PDFs on a thread of their own. The domain decides what is accepted.
 */
export type Workers = {
  /** Decodes an image and encodes it again in `format`, without metadata; throws when unreadable. */
  image: (input: Uint8Array, format: ImageFormat, limits: { pixels: number; seconds: number }) => Promise<ImageWork>;
  /** Counts a PDF's pages (to just past `max`) on a thread stopped after `ms`, its heap capped at `heapMb`. */
  pdfPages: (input: Uint8Array, limits: { max: number; ms: number; heapMb: number }) => Promise<PdfPages>;
  /** An image's frames (more than one: an animation), or null when they cannot be told. */
  frames: (input: Uint8Array) => Promise<number | null>;
};

/** The author's voice profile, as the writing model is given it. */
export type Voice = {
  summary: string | null;
  tone: string[];
  samplePosts: string[];
  niche: string | null;
  traits: string[];
  /** The author's published posts of this format that did best on the network (lib/domain/metrics); [] without numbers. */
  bestPosts: string[];
};

/** What to write: a post, a tweet or a thread, in the author's voice. */
export type Brief = {
  format: "post" | "tweet";
  voice: Voice;
  topic?: string;
  instructions?: string;
  pillar?: string;
  /** A post draft to condense into a tweet, or the text to edit. */
  sourcePost?: string;
  /** A tweet thread of this many parts (2 to 25) instead of one tweet. */
  parts?: number;
  /** Instead of writing about a topic: `sourcePost` made shorter, or said again in the author's voice. */
  edit?: "shorten" | "rewrite";
  /**
   * The network it is written for, whose name the model is told and whose text rule it is
   * fitted to (a tweet: its account's, X or Bluesky); absent, the format's first (LinkedIn; X).
   */
  network?: NetworkSpec;
};

/**
 * The writing model (lib/adapters/ai: any OpenAI-compatible server, else the offline composer). What
 * it returns always fits the network's limit; a model that fails or is given up on throws.
 */
export type Writer = {
  write: (brief: Brief, signal?: AbortSignal) => Promise<string>;
  /** A thread of `brief.parts` tweets (at least 2). */
  writeThread: (brief: Brief & { parts: number }, signal?: AbortSignal) => Promise<string[]>;
  /** True for the built-in offline starter (no model configured): a template, which the composer's help does not charge. */
  offline?: boolean;
};

export type SendRequest = { url: string; headers: Record<string, string>; body: string; timeoutMs: number };
/** `status` null: no HTTP answer (refused, timeout, network); `error` a short plain summary. */
export type SendResult = { status: number | null; error: string | null };
export type WebhookSender = (r: SendRequest) => Promise<SendResult>;

/** What a linked page says of itself (its Open Graph tags), for a link card; or why it could not be read. */
export type PageCard = { title: string; description: string; image: string | null } | { error: string };
/** Linked pages, read through the SSRF-checked request within a size and a time. */
export type LinkPages = { card: (url: string) => Promise<PageCard> };

/** An image read from an address elsewhere, as it came; or why it could not be read (a short plain reason). */
export type FetchedImage = { bytes: Uint8Array } | { error: string };
/**
 * Images at addresses elsewhere (an import's image URLs), read through the SSRF-checked
 * request: redirects checked again, at most `maxBytes` read (past that: an error, the rest
 * unread), all within `timeoutMs`.
 */
export type OutsideImages = { fetch: (url: string, limits: { maxBytes: number; timeoutMs: number }) => Promise<FetchedImage> };

export type Ports = {
  config: () => Config;
  clock: () => Date;
  platforms: Platforms;
  events: Events;
  model: Writer;
  mail: Mailer;
  workers: Workers;
  /** Where webhook deliveries leave the service (SSRF checks included); tests pass a fake or a resolver. */
  webhooks: { send: WebhookSender };
  /** Linked pages' Open Graph tags (link cards); tests pass a fake or serve pages on loopback. */
  pages: LinkPages;
  /** Images elsewhere that an import names; tests serve them on loopback, or pass a resolver and an origin. */
  images: OutsideImages;
};
