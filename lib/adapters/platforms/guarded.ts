import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { addressAllowed, bare, originIsLoopback } from "@/lib/core/address-policy.mjs";
import { config } from "@/lib/core/config";

// Servers named by an account's own records rather than by this service's configuration (a
// Bluesky account's PDS, from its DID document, which whoever controls the account writes) are
// treated like webhook receivers: https, and never a private, link-local, metadata or otherwise
// special address; loopback only while the service itself runs on loopback. The name is
// resolved once per connection, every address is checked, and the socket uses what was checked.

/** The code of the error a refused address gives (nothing was sent). */
export const ADDRESS_REFUSED = "ADDRESS_REFUSED";

const refused = (what: string) => Object.assign(new Error(`${what} is a private, loopback or reserved address`), { code: ADDRESS_REFUSED });

/** Why this URL may not be connected to, or null: its scheme, or an address written in it. */
export function guardedUrlProblem(url: string): string | null {
  const u = new URL(url);
  const loopbackOk = originIsLoopback(config().origin);
  const host = bare(u.hostname);
  if (isIP(host)) return addressAllowed(host, loopbackOk) ? null : `${u.hostname} is a private, loopback or reserved address`;
  if (u.protocol !== "https:" && !(loopbackOk && originIsLoopback(u.origin))) return "it is not https";
  return null;
}

/** A connection's name resolution (undici's `connect.lookup`) that refuses any address a webhook could not go to. */
export const guardedLookup: LookupFunction = (hostname, options, cb) => {
  dnsLookup(hostname, { ...options, all: true }, (err, found: LookupAddress[]) => {
    const done = cb as (e: NodeJS.ErrnoException | null, a?: string | LookupAddress[], f?: number) => void;
    if (err) return done(err);
    const loopbackOk = originIsLoopback(config().origin);
    if (!found.length || found.some((a) => !addressAllowed(a.address, loopbackOk))) return done(refused(hostname));
    if ((options as { all?: boolean }).all) done(null, found);
    else done(null, found[0].address, found[0].family);
  });
};
