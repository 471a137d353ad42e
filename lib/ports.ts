import type { LanguageModel } from "ai";
import { model } from "@/lib/ai";
import { config, type Config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { platformFor, type Platform, type PlatformName } from "@/lib/platforms";
import { announceDeleted, announceScheduled, announceUnscheduled } from "@/lib/scheduler/events";
import { httpSender, type WebhookSender } from "@/lib/webhooks/sender";

// The outside world as the domain sees it: configuration, the clock, the networks, the
// publishing engine's events, the writing model and the webhook sender. Built in one place
// (defaultPorts), carried on every Ctx and handed to the scheduler, so that a test passes
// fakes instead of reaching for process.env or a module's singleton.

export type Events = {
  scheduled: typeof announceScheduled;
  unscheduled: typeof announceUnscheduled;
  deleted: typeof announceDeleted;
};

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

/** The composition root: the real ports, reading configuration when asked (tests change it). */
export function defaultPorts(): Ports {
  return {
    config,
    clock: () => new Date(),
    platforms: platformFor,
    events: { scheduled: announceScheduled, unscheduled: announceUnscheduled, deleted: announceDeleted },
    model,
    webhooks: { send: httpSender() },
  };
}

let current: Ports | undefined;

/** The ports of this process. */
export const ports = (): Ports => (current ??= defaultPorts());

/** Tests replace some ports (the rest stay real); without an argument, the real ones return. */
export function replacePorts(replaced?: Partial<Ports>) {
  current = replaced ? { ...defaultPorts(), ...replaced } : undefined;
}
