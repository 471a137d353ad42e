import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import type { StoredConnection } from "@/lib/domain/ports";
import { send } from "./http";
import { xAppAuth } from "./x";

// A disconnected LinkedIn or X connection's tokens revoked at the network (OAuth 2.0 Token
// Revocation, RFC 7009), so that a copy of them (a backup, a log) stops working there too,
// not only when it expires. LinkedIn: POST /oauth/v2/revoke with the app's credentials in the
// form (learn.microsoft.com, LinkedIn's OAuth 2.0 docs); X: POST /2/oauth2/revoke with HTTP
// Basic client authentication, as its token endpoint takes it (docs.x.com, OAuth 2.0
// Authorization Code Flow with PKCE). The network answering nothing or an error does not keep
// the account connected here: the tokens are already deleted, and the outcome is logged.

const base = (url: string) => url.replace(/\/+$/, "");

type Revocation = { network: string; url: string; form: Record<string, string>; headers: Record<string, string> };

function revocations(c: StoredConnection): Revocation[] {
  const cfg = config();
  if (c.provider === "linkedin" && cfg.LINKEDIN_CLIENT_ID && cfg.LINKEDIN_CLIENT_SECRET) {
    const app = { client_id: cfg.LINKEDIN_CLIENT_ID, client_secret: cfg.LINKEDIN_CLIENT_SECRET };
    const url = `${base(cfg.LINKEDIN_OAUTH_URL)}/oauth/v2/revoke`;
    return c.access_token ? [{ network: "LinkedIn", url, form: { ...app, token: c.access_token }, headers: {} }] : [];
  }
  if (c.provider === "twitter" && cfg.X_CLIENT_ID && cfg.X_CLIENT_SECRET) {
    const url = `${base(cfg.X_API_URL)}/2/oauth2/revoke`;
    const one = (token: string | null, hint: string): Revocation[] =>
      token ? [{ network: "X", url, form: { token, token_type_hint: hint, client_id: cfg.X_CLIENT_ID! }, headers: xAppAuth() }] : [];
    return [...one(c.refresh_token, "refresh_token"), ...one(c.access_token, "access_token")];
  }
  return [];
}

/** Revokes the connection's tokens at LinkedIn (its access token) or X (its refresh token, then its access token); never throws. */
export async function revokeAtNetwork(c: StoredConnection): Promise<void> {
  for (const r of revocations(c)) {
    try {
      const res = await send(r.network, r.url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...r.headers },
        body: new URLSearchParams(r.form).toString(),
      });
      if (!res.ok) log("warn", "a disconnected account's token was not revoked at its network", { network: r.network, status: res.status });
    } catch (e) {
      log("warn", "a disconnected account's token was not revoked at its network", { network: r.network, ...errorFacts(e) });
    }
  }
}
