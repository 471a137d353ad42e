import { config } from "@/lib/core/config";
import { INVISIBLE_CHAR } from "@/lib/core/invisible-chars";

export const DEFAULT_RETURN_PATH = "/content";

// Browsers drop tabs and newlines from URLs and read "\" as "/", so "/\t/evil.example" or
// "/\evil.example" become "//evil.example": another site. Anything that could turn into
// another host after such clean-up, or after percent-decoding, is refused outright rather
// than repaired: whitespace, backslashes and every invisible character (lib/core/invisible-chars.ts).
const unsafeChar = (s: string) => /[\s\\]/.test(s) || INVISIBLE_CHAR.test(s);

/** A path and its percent-decodings (a redirect can be decoded once or twice more on the way). */
function decodings(raw: string): string[] | null {
  const out = [raw];
  let cur = raw;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(cur);
    } catch {
      return null; // a broken escape is not a path this service ever links to
    }
    if (next === cur) break;
    out.push((cur = next));
  }
  return out;
}

/**
 * A path on this service to send the browser to after signing in, or `fallback`. Only a
 * same-origin path ("/…") passes; hosts, schemes, protocol-relative forms and anything with
 * whitespace, control characters or backslashes (anywhere raw, or in the path once
 * percent-decoded) fall back. The query is not decoded: it may carry encoded URLs and
 * spaces (the authorize request's redirect_uri, state) and cannot change the host.
 */
export function safeReturnPath(raw: unknown, fallback = DEFAULT_RETURN_PATH): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2000 || unsafeChar(raw)) return fallback;
  const forms = decodings(raw.split(/[?#]/, 1)[0]);
  if (!forms) return fallback;
  for (const f of forms) {
    if (!f.startsWith("/") || f.startsWith("//") || unsafeChar(f)) return fallback;
  }
  const origin = new URL(config().origin).origin;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return fallback;
  }
  // "/.//host" parses to the path "//host": harmless as given, but never pass on a value
  // whose normal form reads as another host.
  if (url.origin !== origin || url.pathname.startsWith("//")) return fallback;
  return raw;
}

/** The same for a URL that may be absolute on this service's origin (as next-auth writes them). */
export function safeReturnUrl(raw: unknown, fallback = DEFAULT_RETURN_PATH): string {
  const origin = new URL(config().origin).origin;
  if (raw === origin) return "/";
  return safeReturnPath(typeof raw === "string" && raw.startsWith(`${origin}/`) ? raw.slice(origin.length) : raw, fallback);
}
