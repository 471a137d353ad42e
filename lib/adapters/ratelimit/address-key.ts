import { isIPv6 } from "node:net";

// Per-address limits are meant to count one party. An IPv4 address is one host (or one NAT);
// an IPv6 host is normally given a whole /64 (SLAAC, privacy addresses) and may use any
// address in it, so counting each /128 would give it 2^64 budgets: IPv6 addresses are counted
// by their /64 network. An IPv4-mapped address (::ffff:a.b.c.d, as a dual-stack socket
// reports an IPv4 client) is that IPv4 address.

/** The key one client address is counted under: its IPv4 address, its IPv6 /64 network, or else the text as given. */
export function addressKey(address: string): string {
  const ip = address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""); // brackets, zone (fe80::1%eth0)
  if (!isIPv6(ip)) return address;
  const g = ipv6Groups(ip);
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join(".");
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of an address net.isIPv6 accepted ("::" and a dotted IPv4 tail expanded). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const groups = (s: string | undefined) => (s ? s.split(":").map((h) => parseInt(h, 16)) : []);
  if (tail === undefined) return groups(head);
  const hi = groups(head);
  const lo = groups(tail);
  return [...hi, ...new Array<number>(8 - hi.length - lo.length).fill(0), ...lo];
}
