import { isLoopbackRedirectHost } from "@/lib/core/address-policy.mjs";

// Redirect URIs: which may be registered (docs/interface.md, OAuth 2.1, items 9-10) and how a request's URI is
// matched to a registered one (item 13, RFC 8252 section 7.3). Which hosts count as loopback
// redirects is the address policy's question (lib/core/address-policy.mjs).

// Schemes that could run code or read local data in the user's browser: never a redirect.
const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "about:", "blob:", "filesystem:", "ftp:", "ws:", "wss:"]);

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return "must be a URI string";
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `${value.slice(0, 100)} is not an absolute URI`;
  }
  if (u.hash || value.includes("#")) return "must not contain a fragment";
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `the ${u.protocol} scheme is not allowed`;
  if (u.protocol === "http:" && !isLoopbackRedirectHost(u.hostname)) return "http is allowed only for loopback hosts (127.0.0.1, [::1], localhost); use https";
  if ((u.protocol === "https:" || u.protocol === "http:") && !u.hostname) return "must name a host";
  if (u.username || u.password) return "must not contain credentials";
  return null;
}

/**
 * Exact string match, except that a loopback redirect may use any port (native apps pick a
 * free port at run time); scheme, host, path and query stay exact.
 */
export function matchesRegistered(requested: string, registered: string[]): boolean {
  if (registered.includes(requested)) return true;
  let r: URL;
  try {
    r = new URL(requested);
  } catch {
    return false;
  }
  if (r.protocol !== "http:" || !isLoopbackRedirectHost(r.hostname)) return false;
  return registered.some((reg) => {
    try {
      const g = new URL(reg);
      return g.protocol === r.protocol && g.hostname === r.hostname && g.pathname === r.pathname && g.search === r.search && !r.hash;
    } catch {
      return false;
    }
  });
}

/**
 * Where a redirect URI sends people, as the consent page and Connections name it: the host
 * for the web's schemes; for any other, the scheme too, since it opens whatever app claims
 * that scheme (`evilapp://claude.ai/cb` is not claude.ai).
 */
export function redirectHost(uri: string): string {
  try {
    const u = new URL(uri);
    if (u.protocol === "https:" || u.protocol === "http:") return u.host;
    return u.host ? `${u.protocol}//${u.host}` : u.protocol;
  } catch {
    return uri;
  }
}
