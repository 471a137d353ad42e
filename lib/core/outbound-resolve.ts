import { Resolver } from "node:dns/promises";
import { isLoopbackName, LOOPBACK_ADDRESSES } from "@/lib/core/address-policy.mjs";

/** Every address of a name, injectable for tests. */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

/**
 * A receiver's name, resolved by asking DNS (c-ares, on the event loop) rather than through
 * the system's getaddrinfo (dns.lookup). getaddrinfo blocks one of Node's four shared worker
 * threads for as long as the name server takes, and those threads also serve the platforms'
 * connections, password hashing and image work: a few endpoints on a name server that answers
 * slowly could hold them all and make scheduled posts miss their deadline. Each query gives up
 * after 2 s and is tried twice per server. Names under `localhost` are loopback (RFC 6761),
 * without asking.
 */
export function dnsResolve(servers?: string[]): Resolve {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (servers) resolver.setServers(servers);
  return async (host) => {
    const name = host.toLowerCase().replace(/\.$/, "");
    if (isLoopbackName(name)) return [...LOOPBACK_ADDRESSES];
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    const found = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (!found.length) throw v4.status === "rejected" ? v4.reason : new Error(`${name} has no address`);
    return found;
  };
}
