import { Inngest } from "inngest";
import { config, type Config } from "@/lib/config";

// Inngest is used only when configured (config().inngest): without INNGEST_EVENT_KEY or
// INNGEST_DEV its serve route answers 500 and send() throws, so neither is ever reached then.

function build(c: Config) {
  const devUrl = c.INNGEST_DEV && /^https?:\/\//.test(c.INNGEST_DEV) ? c.INNGEST_DEV : undefined;
  return new Inngest({
    id: "contentio",
    isDev: !!c.INNGEST_DEV,
    ...(devUrl && { baseUrl: devUrl }),
    eventKey: c.INNGEST_EVENT_KEY ?? (c.INNGEST_DEV ? "dev" : undefined),
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
