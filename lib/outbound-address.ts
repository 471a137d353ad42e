import { BlockList, isIP } from "node:net";

// Which addresses the service may connect to when someone else chose the URL (webhook
// endpoints, Client ID Metadata Documents): never a private, link-local, metadata or otherwise
// special address, and loopback only while the service itself runs on loopback. Callers check
// the addresses a name resolves to, at connection time, not only the name.

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
] as const)
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
] as const)
  blocked.addSubnet(net, bits, "ipv6");

/** The IPv4 address inside an IPv4-mapped or NAT64 IPv6 address, else null. */
function embeddedV4(ip: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export const isLoopbackAddress = (ip: string): boolean => {
  const v4 = isIP(ip) === 6 ? embeddedV4(ip.toLowerCase()) : ip;
  if (v4 && isIP(v4) === 4) return v4.startsWith("127.");
  return ip === "::1";
};

/** Whether the service may connect to this address (loopback only when `loopbackOk`). */
export function addressAllowed(ip: string, loopbackOk: boolean): boolean {
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

export const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);
export const bare = (host: string) => host.replace(/^\[|\]$/g, "");

/** Whether the service's own origin is a loopback address (a developer's machine, tests). */
export function originIsLoopback(origin: string): boolean {
  const host = new URL(origin).hostname;
  return LOOPBACK_NAMES.has(host) || host.endsWith(".localhost") || isLoopbackAddress(bare(host));
}
