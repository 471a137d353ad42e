import { isIP } from "node:net";
import { addressAllowed, bare, isLoopbackHost, originIsLoopback } from "@/lib/core/address-policy.mjs";
import { invalid } from "@/lib/core/errors";

// Where webhooks may go. The owner chooses the URL, but the service sends from inside its own
// network, so the URL must not reach what only the service can reach: https only (plain http
// only to loopback, and only when the service itself runs on loopback), and never a private,
// link-local, metadata or otherwise special address. The name is checked when saved; the
// addresses it resolves to are checked again at every send (sender.ts).

/**
 * The URL as stored, or invalid_request naming `path`. Checked when an endpoint is saved and
 * again before every send (the service's origin may have changed since).
 */
export function checkWebhookUrl(raw: string, origin: string, path = "url"): URL {
  const refuse = (message: string) => invalid([{ path, message }]);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw refuse("Must be an absolute URL, e.g. https://example.com/webhooks");
  }
  if (u.username || u.password) throw refuse("Must not contain a user name or password; put credentials in the path or verify the signature instead");
  const host = bare(u.hostname);
  const loopbackHost = isLoopbackHost(u.hostname);
  const loopbackOk = originIsLoopback(origin);
  if (u.protocol === "http:") {
    if (!(loopbackOk && loopbackHost)) throw refuse("Must use https (plain http only to loopback while the service itself runs on loopback)");
  } else if (u.protocol !== "https:") throw refuse("Must use https");
  if (loopbackHost && !loopbackOk) throw refuse("Must not point at this machine (loopback)");
  if (isIP(host) && !addressAllowed(host, loopbackOk)) throw refuse("Must not point at a private, link-local or reserved address");
  u.hash = "";
  return u;
}
