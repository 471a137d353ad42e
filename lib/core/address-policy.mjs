// What "loopback" means, and which addresses the service may connect to: the one policy on
// hosts and addresses. Each function answers one question that a caller asks:
//
// - isLoopbackAddress, isLoopbackName, isLoopbackHost: is this address, name or URL host this
//   machine? (a webhook's URL, the MCP endpoint's Host and Origin headers)
// - originIsLoopback: does this service run on loopback? (loopback webhook targets and
//   metadata documents, INNGEST_DEV, MCP's DNS-rebinding check, a mail relay's TLS)
// - isLoopbackListenAddress: does listening on this HOST keep the server on this machine?
// - isLoopbackRedirectHost: may this OAuth redirect use http and any port (RFC 8252)?
// - addressAllowed: may the service connect to this resolved address?
//
// Plain JavaScript because the front server (server.mjs) asks it too, before Next is loaded,
// and cannot import TypeScript; address-policy.d.mts gives TypeScript its types.
import { BlockList, isIP } from "node:net";

/** What every loopback name stands for (RFC 6761): names under `localhost` are loopback without asking DNS. */
export const LOOPBACK_ADDRESSES = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/** An IPv6 URL host without its brackets (`[::1]` -> `::1`); anything else as it is. */
export const bare = (host) => host.replace(/^\[|\]$/g, "");

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address, else null. */
function embeddedV4(ip) {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Whether an IP address (without brackets) is loopback: IPv4 127/8, IPv6 ::1, and an IPv4
 * loopback address inside an IPv4-mapped or NAT64 IPv6 address. Anything that is not an IP
 * address is not.
 */
export function isLoopbackAddress(ip) {
  const v4 = isIP(ip) === 6 ? embeddedV4(ip.toLowerCase()) : ip;
  if (v4 && isIP(v4) === 4) return v4.startsWith("127.");
  return ip === "::1";
}

/** Whether a (lower-case) name is `localhost` or a name under it (RFC 6761). */
export const isLoopbackName = (name) => name === "localhost" || name.endsWith(".localhost");

/** Whether a URL's host name (IPv6 in brackets or not) is this machine: a loopback name or address. */
export const isLoopbackHost = (host) => isLoopbackName(host) || isLoopbackAddress(bare(host));

/** Whether a URL (the service's own origin, a mail relay's) names this machine. */
export const originIsLoopback = (url) => isLoopbackHost(new URL(url).hostname);

/**
 * Whether listening on `host` (server.mjs's HOST) keeps the server on this machine: a loopback
 * address, or `localhost`, which every system's hosts file answers. Not the names under
 * localhost: listen() asks the system's resolver, which need not know them.
 */
export function isLoopbackListenAddress(host) {
  const h = bare(host.toLowerCase());
  return h === "localhost" || isLoopbackAddress(h);
}

/**
 * Whether an OAuth redirect URI's host (as a URL gives it) is a loopback redirect: the
 * loopback IP literals that RFC 8252 (section 7.3) names, 127.0.0.1 and [::1], and
 * `localhost`, which native apps still use. Narrower than isLoopbackHost on purpose: such a
 * redirect may use plain http and any port, and carries an authorization code, so its host
 * must reach this machine whatever the browser's resolver says; a browser that asked DNS for
 * a name under localhost could send the code elsewhere.
 */
export const isLoopbackRedirectHost = (hostname) => hostname === "127.0.0.1" || hostname === "[::1]" || hostname === "localhost";

// Never reached when someone else chose the URL (webhook endpoints, Client ID Metadata
// Documents): private, link-local, metadata or otherwise special addresses. Callers check the
// addresses a name resolves to, at connection time, not only the name.
const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
])
  blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ["::ffff:0:0:0", 96], // IPv4-translated (RFC 2765)
  ["64:ff9b::", 96], // NAT64: reaches IPv4 addresses, checked as IPv4 below
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): whatever the local translator reaches
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7], // unique local (AWS metadata fd00:ec2::254)
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
])
  blocked.addSubnet(net, bits, "ipv6");

/**
 * Whether the service may connect to this address when someone else chose the URL: never a
 * private, link-local, metadata or otherwise special one, and loopback only when `loopbackOk`
 * (the service itself runs on loopback).
 */
export function addressAllowed(ip, loopbackOk) {
  const family = isIP(ip);
  if (!family) return false;
  if (isLoopbackAddress(ip)) return loopbackOk;
  if (family === 6) {
    const v4 = embeddedV4(ip.toLowerCase());
    if (v4) return addressAllowed(v4, loopbackOk);
    return !blocked.check(ip, "ipv6");
  }
  return !blocked.check(ip, "ipv4");
}
