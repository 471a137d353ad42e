import dns from "node:dns";
import https from "node:https";
import net from "node:net";
import { addressAllowed, bare } from "@/lib/core/address-policy.mjs";
import { dnsResolve } from "@/lib/core/outbound-resolve";

// Fetching a document a client names by URL (a Client ID Metadata Document) is a request the
// outside world makes this server send: so only https, only public addresses (checked on the
// address actually connected to, so DNS cannot swap it after the check), a size and time
// bound, and one request: a redirect is answered as it came, never followed (the caller
// refuses it; see client-metadata.ts).

export class FetchRefused extends Error {}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

// Through DNS itself, not getaddrinfo's shared worker threads (lib/core/outbound-resolve.ts): anyone
// may name a document, on a name server as slow as they like.
const resolve = dnsResolve();

function guardedLookup(allowLoopback: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolve(hostname).then(
      (list) => {
        const bad = list.find((a) => !addressAllowed(a.address, allowLoopback));
        if (bad || list.length === 0) return callback(Object.assign(new FetchRefused(`${hostname} resolves to a private address`), { code: "EPRIVATE" }), "");
        if (options.all) return callback(null, list);
        callback(null, list[0].address, list[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ""),
    );
  };
}

export type Fetched = { status: number; headers: Record<string, string | string[] | undefined>; body: string; url: string };

type Options = { maxBytes: number; timeoutMs: number; allowLoopback: boolean };

function getOnce(url: URL, allowLoopback: boolean, maxBytes: number, deadline: number): Promise<Omit<Fetched, "url">> {
  const host = bare(url.hostname);
  if (net.isIP(host) && !addressAllowed(host, allowLoopback)) return Promise.reject(new FetchRefused(`${url.host} is a private address`));
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: "GET", headers: { accept: "application/json" }, lookup: guardedLookup(allowLoopback) as never, timeout: Math.max(1, deadline - Date.now()) },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let ended = false;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) {
            req.destroy(new FetchRefused(`the document is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on("end", () => {
          ended = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
        // Cut off mid-body (size or time bound): the reason was given to destroy().
        res.on(
          "close",
          () => ended || reject(new FetchRefused(size > maxBytes ? `the document is larger than ${maxBytes} bytes` : "the document took too long to arrive")),
        );
      },
    );
    const timer = setTimeout(() => req.destroy(new FetchRefused("the document took too long to arrive")), Math.max(1, deadline - Date.now()));
    req.on("timeout", () => req.destroy(new FetchRefused("the document took too long to arrive")));
    req.on("error", reject);
    req.on("close", () => clearTimeout(timer));
    req.end();
  });
}

/**
 * GETs an https document within the bounds, with no redirect followed: a 3xx comes back as
 * any other status. Loopback is allowed only when asked (a service that itself runs on
 * loopback).
 */
export async function fetchDocument(url: string, o: Options): Promise<Fetched> {
  const u = new URL(url);
  if (u.protocol !== "https:") throw new FetchRefused("only https documents are fetched");
  return { ...(await getOnce(u, o.allowLoopback, o.maxBytes, Date.now() + o.timeoutMs)), url: u.toString() };
}
