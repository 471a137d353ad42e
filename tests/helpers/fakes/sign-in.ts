import { createHash, randomBytes } from "node:crypto";
import type http from "node:http";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import type { FakeContext } from "./context";
import { json, type Route } from "./state";

// The networks' sign-in on the fake: LinkedIn's OpenID Connect (discovery, JWKS, an id_token
// signed with the key it serves) and X's OAuth 2.0 with PKCE. Their authorize endpoints act as
// a person who agrees at once. Token endpoints take codes and refresh tokens as the real ones
// do: X rotates refresh tokens (Basic client authentication); LinkedIn (credentials in the
// form) gives refresh tokens to approved partner apps only, so by default none at all.

export const APPS: Record<Route, { clientId: string; clientSecret: string }> = {
  linkedin: { clientId: "li-app", clientSecret: "li-secret" },
  x: { clientId: "x-app", clientSecret: "x-secret" },
};

type Code = { redirectUri: string; scope: string; challenge?: string };

export async function signInRoutes(c: FakeContext) {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "fake-1", use: "sig", alg: "RS256" };
  const codes = new Map<string, Code>();
  const issuer = () => `${c.url()}/oauth`;
  const refuse = (route: Route, res: http.ServerResponse, why: string) => {
    c.f.signIn[route].errors.push(why);
    json(res, 400, { error: "invalid_request", error_description: why });
  };

  const authorize = (route: Route, q: URLSearchParams, res: http.ServerResponse) => {
    c.f.signIn[route].authorizations.push(q);
    const redirect = q.get("redirect_uri") ?? "";
    if (q.get("client_id") !== APPS[route].clientId || q.get("response_type") !== "code" || !/^http:\/\/localhost:\d+\//.test(redirect))
      return refuse(route, res, `authorize: ${q}`);
    if (route === "x" && !(q.get("code_challenge") && q.get("code_challenge_method") === "S256")) return refuse(route, res, "authorize without PKCE");
    const code = randomBytes(12).toString("hex");
    codes.set(code, { redirectUri: redirect, scope: q.get("scope") ?? "", challenge: q.get("code_challenge") ?? undefined });
    const back = new URL(redirect);
    back.searchParams.set("code", code);
    if (q.get("state")) back.searchParams.set("state", q.get("state")!);
    res.writeHead(302, { location: back.toString() }).end();
  };

  /** The scope as each network writes it in a token response: X with spaces, LinkedIn with commas. */
  const written = (route: Route, scopes: string[]) => scopes.join(route === "x" ? " " : ",");

  /** Whether a request to a token or revocation endpoint authenticates the app as the network takes it: LinkedIn in the form, X with HTTP Basic. */
  const clientAuthenticated = (route: Route, req: http.IncomingMessage, form: URLSearchParams) => {
    const app = APPS[route];
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString("base64")}`;
    return route === "linkedin"
      ? form.get("client_id") === app.clientId && form.get("client_secret") === app.clientSecret
      : req.headers.authorization === basic;
  };

  const token = async (route: Route, req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const form = new URLSearchParams(body);
    const s = c.f.signIn[route];
    s.tokenRequests.push({ form, authorization: req.headers.authorization });
    if (!clientAuthenticated(route, req, form)) return c.bad(res, `${route} token request without client authentication`);
    if (form.get("grant_type") === "refresh_token") return refresh(route, form, res);
    const code = codes.get(form.get("code") ?? "");
    codes.delete(form.get("code") ?? ""); // single use
    if (form.get("grant_type") !== "authorization_code" || !code) return json(res, 400, { error: "invalid_grant" });
    if (form.get("redirect_uri") !== code.redirectUri) return refuse(route, res, "token: redirect_uri differs");
    if (
      route === "x" &&
      createHash("sha256")
        .update(form.get("code_verifier") ?? "")
        .digest("base64url") !== code.challenge
    )
      return refuse(route, res, "token: PKCE verifier does not match");
    const who = { ...s.person };
    const scopes = code.scope.split(" ").filter((x) => x && !s.withheld.includes(x));
    const t = c.issue(route, scopes, who.sub, s.issueRefreshToken && (route === "linkedin" || scopes.includes("offline.access")));
    const out: Record<string, unknown> = {
      access_token: t.access,
      token_type: "Bearer",
      expires_in: route === "x" ? 7200 : 5183999,
      scope: written(route, scopes),
    };
    if (t.refresh) out.refresh_token = t.refresh;
    if (t.refresh && route === "linkedin") out.refresh_token_expires_in = 31535999;
    if (route === "linkedin") {
      out.id_token = await new SignJWT({ name: who.name, email: who.email, email_verified: true, locale: "en_US" })
        .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "JWT" })
        .setIssuer(issuer())
        .setAudience(APPS[route].clientId)
        .setSubject(who.sub)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(privateKey);
    }
    s.issued.push({ access_token: t.access, refresh_token: t.refresh, scope: scopes.join(" ") });
    json(res, 200, out);
  };

  /** The refresh_token grant, rotating: the refresh token used stops working. */
  const refresh = async (route: Route, form: URLSearchParams, res: http.ServerResponse) => {
    const tokens = c.f.tokens[route];
    c.f.refreshes[route]++;
    await new Promise((r) => setTimeout(r, c.refreshDelayMs));
    const given = form.get("refresh_token") ?? "";
    const grant = given === tokens.refresh ? tokens.refreshGrant : tokens.refreshGrants.get(given);
    // LinkedIn refreshes only for approved partner apps: for the others, no refresh token works.
    if (!grant || (route === "linkedin" && !c.f.signIn.linkedin.issueRefreshToken)) return json(res, 400, { error: "invalid_grant" });
    tokens.refreshGrants.delete(given);
    const t = c.issue(route, [...grant.scopes], grant.member);
    tokens.refresh = t.refresh!;
    tokens.refreshGrant = grant;
    tokens.refreshGrants.delete(t.refresh!);
    json(res, 200, {
      access_token: t.access,
      refresh_token: t.refresh,
      expires_in: route === "x" ? 7200 : 5183999,
      token_type: "bearer",
      scope: written(route, [...grant.scopes]),
    });
  };

  /**
   * RFC 7009 revocation: the token (access or refresh) stops working at once; 200 whether or
   * not it was known (section 2.2). LinkedIn answers 200 with no body, X `{ "revoked": true }`.
   */
  const revoke = (route: Route, req: http.IncomingMessage, res: http.ServerResponse, body: string) => {
    const form = new URLSearchParams(body);
    if (!clientAuthenticated(route, req, form)) return c.bad(res, `${route} revocation without client authentication`);
    const given = form.get("token");
    if (!given) return json(res, 400, { error: "invalid_request" });
    c.f.signIn[route].revoked.push({ token: given, hint: form.get("token_type_hint") });
    const tokens = c.f.tokens[route];
    tokens.access.delete(given);
    tokens.refreshGrants.delete(given);
    if (tokens.refresh === given) tokens.refresh = "";
    if (route === "x") json(res, 200, { revoked: true });
    else res.writeHead(200).end();
  };

  /** Answers the sign-in paths of both networks; false for any other path. */
  return async (req: http.IncomingMessage, res: http.ServerResponse, u: URL, raw: Buffer): Promise<boolean> => {
    const p = u.pathname;
    const body = raw.toString("utf8");
    if (p === "/oauth/.well-known/openid-configuration") {
      const base = c.url();
      json(res, 200, {
        issuer: issuer(),
        authorization_endpoint: `${base}/oauth/v2/authorization`,
        token_endpoint: `${base}/oauth/v2/accessToken`,
        userinfo_endpoint: `${base}/v2/userinfo`,
        jwks_uri: `${base}/oauth/openid/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["RS256"],
        scopes_supported: ["openid", "profile", "email"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      });
    } else if (p === "/oauth/openid/jwks") json(res, 200, { keys: [jwk] });
    else if (p === "/oauth/v2/authorization") authorize("linkedin", u.searchParams, res);
    else if (p === "/i/oauth2/authorize") authorize("x", u.searchParams, res);
    else if (p === "/oauth/v2/accessToken" && req.method === "POST") await token("linkedin", req, res, body);
    else if (p === "/2/oauth2/token" && req.method === "POST") await token("x", req, res, body);
    else if (p === "/oauth/v2/revoke" && req.method === "POST") revoke("linkedin", req, res, body);
    else if (p === "/2/oauth2/revoke" && req.method === "POST") revoke("x", req, res, body);
    else return false;
    return true;
  };
}
