import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { config } from "@/lib/core/config";
import { TIMED_OUT, withTimeout } from "@/lib/core/with-timeout";
import { addressAllowed, bare, originIsLoopback } from "@/lib/core/address-policy.mjs";
import { checkWebhookUrl } from "../../domain/webhooks/address";
import { dnsResolve, type Resolve } from "@/lib/core/outbound-resolve";

// One request to a URL someone else chose (a webhook receiver, a page a post links to): the
// URL is checked (https, or http to loopback while the service runs on loopback; no private
// address), the name is resolved here (every address it has), every address is checked, and
// the socket connects to the checked address through a custom `lookup`: no second resolution
// happens, so DNS rebinding cannot swap in a private address between the check and the
// connection. Redirects are never followed, and at most `maxBytes` of the answer are read.

export type CheckedRequest = {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** The whole request, the name's resolution included. */
  timeoutMs: number;
  /** The answer is read up to this many bytes, then the connection is closed (`truncated`). */
  maxBytes: number;
};

/** `status` null: no HTTP answer (refused, timeout, network); `error` a short plain summary. */
export type CheckedAnswer =
  { status: number; headers: http.IncomingHttpHeaders; body: Buffer; truncated: boolean; error: null } | { status: null; error: string };

export type CheckedRequester = (r: CheckedRequest) => Promise<CheckedAnswer>;

export function checkedRequester(opts: { resolve?: Resolve; origin?: () => string } = {}): CheckedRequester {
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
    return new Promise<CheckedAnswer>((done) => {
      let settled = false;
      const finish = (res: CheckedAnswer) => {
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
          method: r.method,
          headers: { ...r.headers, ...(r.body !== undefined && { "content-length": String(Buffer.byteLength(r.body)) }) },
          lookup: pinned,
          agent: false,
          // TLS checks the certificate against the name, not the address.
          ...(u.protocol === "https:" && !isIP(host) && { servername: host }),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let read = 0;
          const answer = (truncated: boolean) =>
            finish({ status, headers: res.headers, body: Buffer.concat(chunks).subarray(0, r.maxBytes), truncated, error: null });
          res.on("data", (chunk: Buffer) => {
            read += chunk.length;
            chunks.push(chunk);
            if (read >= r.maxBytes) answer(true);
          });
          res.on("end", () => answer(false));
          res.on("error", () => answer(true));
        },
      );
      const timer = setTimeout(() => finish({ status: null, error: `no answer within ${r.timeoutMs / 1000} s` }), Math.max(0, deadline - Date.now()));
      req.on("error", (e: NodeJS.ErrnoException) => finish({ status: null, error: `connection failed (${e.code ?? "error"})` }));
      req.end(r.body);
    });
  };
}
