import { config } from "@/lib/core/config";

/**
 * The caller's network address, for per-address limits and logs. `npm start` (server.mjs)
 * settles X-Forwarded-For before the app sees it: with TRUST_PROXY 0 it holds only the
 * connection's address; with N proxies it is the proxies' chain plus the connection's
 * address, and the client is the entry N places left of the last one (what the outermost
 * trusted proxy saw). Entries further left were written by the client and are never used.
 */
export function clientAddress(headers: Headers, trustProxy = config().TRUST_PROXY): string {
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  if (chain.length === 0) return "unknown";
  return chain[Math.max(0, chain.length - 1 - trustProxy)];
}
