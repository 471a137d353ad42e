import { Inngest } from "inngest";
import { config, type Config } from "@/lib/core/config";

// Inngest is used only when configured (config().inngest): without INNGEST_EVENT_KEY or
// INNGEST_DEV its serve route answers 500 and send() throws, so neither is ever reached then.

// Keys and addresses come from the service's configuration, not from the SDK reading the
// environment on its own: one source for the server and its tests.
function build(c: Config) {
  const devUrl = c.INNGEST_DEV && /^https?:\/\//.test(c.INNGEST_DEV) ? c.INNGEST_DEV : undefined;
  const baseUrl = devUrl ?? c.INNGEST_BASE_URL;
  return new Inngest({
    id: "contentio",
    isDev: !!c.INNGEST_DEV,
    ...(baseUrl && { baseUrl }),
    eventKey: c.INNGEST_EVENT_KEY ?? (c.INNGEST_DEV ? "dev" : undefined),
    ...(c.INNGEST_SIGNING_KEY && { signingKey: c.INNGEST_SIGNING_KEY }),
  });
}

let cached: { c: Config; client: ReturnType<typeof build> } | undefined;

/** The client for the current configuration (tests change it between files). */
export function inngest() {
  const c = config();
  if (cached?.c !== c) cached = { c, client: build(c) };
  return cached.client;
}

export { EVENTS, ScheduledData } from "./events";
