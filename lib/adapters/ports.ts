import { writer } from "@/lib/adapters/ai";
import { config } from "@/lib/core/config";
import { smtpMailer } from "@/lib/adapters/mail";
import type { Ports } from "@/lib/domain/ports";
import { authorizeFinish, authorizeStart, connectedAccount, passwordSignIn, platformFor, realConfigured, signOut } from "@/lib/adapters/platforms";
import { announceDeleted, announceScheduled, announceUnscheduled } from "@/lib/adapters/scheduler/events";
import { httpSender } from "@/lib/adapters/webhooks/sender";
import { mediaWorkers } from "@/lib/adapters/workers";
import { pageCard } from "@/lib/adapters/pages/open-graph";
import { outsideImages } from "@/lib/adapters/images/outside";

export type { Events, Mail, Mailer, Platforms, Ports, Workers, Writer } from "@/lib/domain/ports";

// The composition root: the domain declares the ports it needs (lib/domain/ports.ts), and
// here each gets its real adapter, once. The domain never imports this file: every Ctx
// carries the ports, and the background passes (scheduler, Inngest, webhooks) are handed them.

/** The real ports, reading configuration when asked (tests change it). */
export function defaultPorts(): Ports {
  return {
    config,
    clock: () => new Date(),
    platforms: {
      configured: realConfigured,
      connection: connectedAccount,
      open: platformFor,
      signIn: passwordSignIn,
      authorize: authorizeStart,
      finishAuthorize: authorizeFinish,
      signOut,
    },
    events: { scheduled: announceScheduled, unscheduled: announceUnscheduled, deleted: announceDeleted },
    model: writer(),
    mail: smtpMailer(),
    workers: mediaWorkers(),
    webhooks: { send: httpSender() },
    pages: { card: pageCard },
    images: outsideImages(),
  };
}

let current: Ports | undefined;

/** The ports of this process. */
export const ports = (): Ports => (current ??= defaultPorts());

/** Tests replace some ports (the rest stay real); without an argument, the real ones return. */
export function replacePorts(replaced?: Partial<Ports>) {
  current = replaced ? { ...defaultPorts(), ...replaced } : undefined;
}
