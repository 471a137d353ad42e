import { redactSecrets } from "@/lib/core/redact";
import type { Receipt } from "@/lib/domain/networks/platform";
import { readRefusal } from "./metrics";
import type { Answer } from "./request";

// What the adapters share when they read a published post back (a receipt): a read never
// throws, and only the network saying it no longer has the post makes it "gone". A refusal
// (a missing permission, a rate limit) or an outage is "unchecked" and changes nothing.

/** Runs one read back; a call that failed outright (timeout, connection, token) is unchecked. */
export async function receiptOf(network: string, read: () => Promise<Receipt>): Promise<Receipt> {
  try {
    return await read();
  } catch (e) {
    return { state: "unchecked", reason: `${network} could not be read: ${redactSecrets(String((e as Error)?.message ?? e), 300)}` };
  }
}

/** A read that did not say whether the post is there, in words (`permission`: what a 403 means on this network). */
export async function unchecked(network: string, res: Answer, permission: string): Promise<Receipt> {
  const said = await readRefusal(network, res);
  return { state: "unchecked", reason: res.status === 403 ? `${said} ${permission}` : said };
}
