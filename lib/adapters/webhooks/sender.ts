import type { SendRequest, SendResult, WebhookSender } from "@/lib/domain/ports";
import type { Resolve } from "@/lib/core/outbound-resolve";
import { checkedRequester } from "./checked-request";

// The one place a webhook leaves the service: a checked request (checked-request.ts: the URL
// and every address it resolves to, the socket pinned to the checked address, no redirects).
// At most 64 KiB of the answer is read, and never stored or shown: only its status is kept.

export type { SendRequest, SendResult, WebhookSender }; // the webhooks port, as the domain declares it

const MAX_BODY = 64 * 1024;
export function httpSender(opts: { resolve?: Resolve; origin?: () => string } = {}): WebhookSender {
  const request = checkedRequester(opts);
  return async (r) => {
    const a = await request({ url: r.url, method: "POST", headers: r.headers, body: r.body, timeoutMs: r.timeoutMs, maxBytes: MAX_BODY });
    return a.status === null ? a : summary(a.status);
  };
}

function summary(status: number): SendResult {
  if (status >= 200 && status < 300) return { status, error: null };
  if (status >= 300 && status < 400) return { status, error: `answered ${status}: redirects are not followed` };
  return { status, error: `answered ${status}` };
}
