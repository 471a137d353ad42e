import type { LanguageModel } from "ai";
import type { Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import type { DraftType, PlatformName } from "@/lib/networks";
import type { Platform } from "@/lib/networks/platform";

// The outside world as the domain sees it: configuration, the clock, the networks, the
// publishing engine's events, the writing model and the webhook sender. Declared here, by the
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

export type SendRequest = { url: string; headers: Record<string, string>; body: string; timeoutMs: number };
/** `status` null: no HTTP answer (refused, timeout, network); `error` a short plain summary. */
export type SendResult = { status: number | null; error: string | null };
export type WebhookSender = (r: SendRequest) => Promise<SendResult>;

export type Ports = {
  config: () => Config;
  clock: () => Date;
  /** The network a user's draft goes to (the real one when configured, else the sandbox). */
  platforms: (db: Db, userId: string, name: PlatformName) => Promise<Platform>;
  events: Events;
  model: () => LanguageModel;
  /** Where webhook deliveries leave the service (SSRF checks included); tests pass a fake or a resolver. */
  webhooks: { send: WebhookSender };
};
