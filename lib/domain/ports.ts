import type { LanguageModel } from "ai";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import type { DraftType, PlatformName } from "@/lib/networks";
import type { Platform } from "@/lib/networks/platform";
import type { authAccounts } from "@/drizzle/schema";

// The outside world as the domain sees it: configuration, the clock, the networks, the
// publishing engine's events, the writing model, mail and the webhook sender. Declared here, by the
// domain that uses them; lib/ports.ts (the composition root) plugs the real adapters in once,
// and every Ctx carries them, so that a test passes fakes instead of reaching for process.env
// or a module's singleton.

type DraftRef = { type: DraftType; id: string; userId: string };

/** Schedule changes, told to the publishing engine (Inngest, when configured). */
export type Events = {
  scheduled: (d: DraftRef & { scheduledFor: Date; previous: Date | null; version: number }) => Promise<void>;
  unscheduled: (d: DraftRef & { scheduledFor: Date; version: number }) => Promise<void>;
  deleted: (d: DraftRef) => Promise<void>;
};

/** A user's stored connection to a network (auth_accounts), as sign-in and token refreshes keep it. */
export type StoredConnection = typeof authAccounts.$inferSelect;

/**
 * The networks, as the domain asks about them. What follows from the stored connection alone
 * (its state, the permissions it lacks) is pure: lib/networks and lib/networks/scopes.
 */
export type Platforms = {
  /** Whether this deployment has the network's app credentials; without them the built-in sandbox stands in. */
  configured: (name: PlatformName) => boolean;
  /** The user's stored connection to the network, or null. */
  connection: (db: Db, userId: string, name: PlatformName) => Promise<StoredConnection | null>;
  /** The network a user's draft goes to: the real one when configured (refused without a usable connection), else the sandbox. */
  open: (db: Db, userId: string, name: PlatformName) => Promise<Platform>;
};

/** An e-mail to one person, in plain text. */
export type Mail = { to: string; subject: string; text: string };

/** E-mail to the owner (lib/mail: SMTP when SMTP_URL is set). */
export type Mailer = {
  /** Whether mail can go out at all; without it the notification sweeps are not run. */
  configured: () => boolean;
  send: (m: Mail) => Promise<void>;
};

export type SendRequest = { url: string; headers: Record<string, string>; body: string; timeoutMs: number };
/** `status` null: no HTTP answer (refused, timeout, network); `error` a short plain summary. */
export type SendResult = { status: number | null; error: string | null };
export type WebhookSender = (r: SendRequest) => Promise<SendResult>;

export type Ports = {
  config: () => Config;
  clock: () => Date;
  platforms: Platforms;
  events: Events;
  model: () => LanguageModel;
  mail: Mailer;
  /** Where webhook deliveries leave the service (SSRF checks included); tests pass a fake or a resolver. */
  webhooks: { send: WebhookSender };
};
