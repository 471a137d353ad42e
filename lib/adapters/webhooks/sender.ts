import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { config } from "@/lib/core/config";
import { TIMED_OUT, withTimeout } from "@/lib/core/with-timeout";
import type { SendRequest, SendResult, WebhookSender } from "@/lib/domain/ports";
import { addressAllowed, bare, originIsLoopback } from "@/lib/core/address-policy.mjs";
import { checkWebhookUrl } from "../../domain/webhooks/address";
import { dnsResolve, type Resolve } from "@/lib/core/outbound-resolve";

// The one place a webhook leaves the service. The name is resolved here (every address it
// has), every address is checked, and the socket connects to the checked address through a
// custom `lookup`: no second resolution happens, so DNS rebinding cannot swap in a private
// address between the check and the connection. Redirects are never followed, and at most
// 64 KiB of the answer is read (and never stored or shown: only its status is kept).

export type { SendRequest, SendResult, WebhookSender }; // the webhooks port, as the domain declares it

const MAX_BODY = 64 * 1024;
export function httpSender(opts: { resolve?: Resolve; origin?: () => string } = {}): WebhookSender {
  const resolve = opts.resolve ?? dnsResolve();
  const origin = opts.origin ?? (() => config().origin);
  return async (r) => {
    const o = origin();
    let u: URL;
    try {
      u = checkWebhookUrl(r.url, o);
    } catch {
      return { status: null, error: "refused: the URL is not allowed (https only, no private addresses)" };
    }
    const host = bare(u.hostname);
    // The timeout covers the whole send, the name's resolution included.
    const deadline = Date.now() + r.timeoutMs;
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await withTimeout(resolve(host), r.timeoutMs);
    } catch (e) {
      return { status: null, error: `could not resolve ${u.hostname}${e === TIMED_OUT ? ` within ${r.timeoutMs / 1000} s` : ""}` };
    }
    const loopbackOk = originIsLoopback(o);
    // Every address must be allowed: a name with one public and one private address would
    // otherwise reach the private one whenever the public one fails.
    if (!addresses.length || addresses.some((a) => !addressAllowed(a.address, loopbackOk))) {
      return { status: null, error: `refused: ${u.hostname} resolves to a private, loopback or reserved address` };
    }
    const target = addresses[0];
    const pinned: LookupFunction = (_name, options, cb) => {
      if ((options as { all?: boolean }).all) (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
      else cb(null, target.address, target.family);
    };
    return new Promise<SendResult>((done) => {
      let settled = false;
      const finish = (res: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        done(res);
      };
      const mod = u.protocol === "https:" ? https : http;
      const req = mod.request(
        u,
        {
          method: "POST",
          headers: { ...r.headers, "content-length": String(Buffer.byteLength(r.body)) },
          lookup: pinned,
          agent: false,
          // TLS checks the certificate against the name, not the address.
          ...(u.protocol === "https:" && !isIP(host) && { servername: host }),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          let read = 0;
          res.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read >= MAX_BODY) finish(summary(status));
          });
          res.on("end", () => finish(summary(status)));
          res.on("error", () => finish(summary(status)));
        },
      );
      const timer = setTimeout(() => finish({ status: null, error: `no answer within ${r.timeoutMs / 1000} s` }), Math.max(0, deadline - Date.now()));
      req.on("error", (e: NodeJS.ErrnoException) => finish({ status: null, error: `connection failed (${e.code ?? "error"})` }));
      req.end(r.body);
    });
  };
}

function summary(status: number): SendResult {
  if (status >= 200 && status < 300) return { status, error: null };
  if (status >= 300 && status < 400) return { status, error: `answered ${status}: redirects are not followed` };
  return { status, error: `answered ${status}` };
}
