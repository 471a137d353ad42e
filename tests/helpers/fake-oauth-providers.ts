import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair } from "jose";

// Fake sign-in servers on loopback: LinkedIn (OpenID Connect: discovery, JWKS, an id_token
// signed with the key it serves, userinfo) and X (OAuth 2.0 with PKCE, /2/users/me). Their
// authorize endpoints act as a person who agrees at once: straight back with a code and the
// state. They check what the real ones check and record what they were sent.

export type Person = { sub: string; name: string; email?: string; username?: string };

type Grant = { clientId: string; redirectUri: string; scope: string; challenge?: string; method?: string };

export type FakeOAuth = {
  url: string;
  /** Each authorize request's query, as the browser sent it. */
  authorizations: URLSearchParams[];
  /** Each token request: its form and whether it carried client authentication. */
  tokenRequests: { form: URLSearchParams; authorization?: string }[];
  /** Refused requests (must stay empty). */
  errors: string[];
  /** Who signs in next. */
  person: Person;
  /** Whether the next token responses carry a refresh token (LinkedIn often sends none). */
  issueRefreshToken: boolean;
  /** Tokens handed out so far, newest last. */
  issued: { access_token: string; refresh_token?: string; scope: string }[];
  close: () => Promise<void>;
};

const read = async (req: http.IncomingMessage) => {
  let b = "";
  for await (const c of req) b += c;
  return b;
};

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
}

export async function startFakeOAuth(kind: "linkedin" | "x", app: { clientId: string; clientSecret: string }, person: Person): Promise<FakeOAuth> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "fake-1", use: "sig", alg: "RS256" };
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, Person>();
  let n = 0;
  let url = "";
  const f: Omit<FakeOAuth, "url" | "close"> = { authorizations: [], tokenRequests: [], errors: [], person, issueRefreshToken: true, issued: [] };
  const issuer = () => `${url}/oauth`;
  const paths =
    kind === "linkedin"
      ? { authorize: "/oauth/v2/authorization", token: "/oauth/v2/accessToken", userinfo: "/v2/userinfo" }
      : { authorize: "/i/oauth2/authorize", token: "/2/oauth2/token", userinfo: "/2/users/me" };
  const refuse = (res: http.ServerResponse, why: string) => {
    f.errors.push(why);
    json(res, 400, { error: "invalid_request", error_description: why });
  };

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://fake");
    const body = await read(req);
    if (kind === "linkedin" && u.pathname === "/oauth/.well-known/openid-configuration") {
      return json(res, 200, {
        issuer: issuer(),
        authorization_endpoint: `${url}${paths.authorize}`,
        token_endpoint: `${url}${paths.token}`,
        userinfo_endpoint: `${url}${paths.userinfo}`,
        jwks_uri: `${url}/oauth/openid/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["pairwise"],
        id_token_signing_alg_values_supported: ["RS256"],
        scopes_supported: ["openid", "profile", "email"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
      });
    }
    if (kind === "linkedin" && u.pathname === "/oauth/openid/jwks") return json(res, 200, { keys: [jwk] });

    if (u.pathname === paths.authorize) {
      const q = u.searchParams;
      f.authorizations.push(q);
      const redirect = q.get("redirect_uri") ?? "";
      if (q.get("client_id") !== app.clientId || q.get("response_type") !== "code" || !/^http:\/\/localhost:\d+\//.test(redirect)) {
        return refuse(res, `authorize: ${q}`);
      }
      if (kind === "x" && !(q.get("code_challenge") && q.get("code_challenge_method") === "S256")) return refuse(res, "authorize without PKCE");
      const code = randomBytes(12).toString("hex");
      codes.set(code, { clientId: app.clientId, redirectUri: redirect, scope: q.get("scope") ?? "", challenge: q.get("code_challenge") ?? undefined });
      const back = new URL(redirect);
      back.searchParams.set("code", code);
      if (q.get("state")) back.searchParams.set("state", q.get("state")!);
      return void res.writeHead(302, { location: back.toString() }).end();
    }

    if (u.pathname === paths.token && req.method === "POST") {
      const form = new URLSearchParams(body);
      f.tokenRequests.push({ form, authorization: req.headers.authorization });
      // LinkedIn takes the client credentials in the form; X (a confidential client) as Basic.
      const basic = `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString("base64")}`;
      const authed =
        kind === "linkedin" ? form.get("client_id") === app.clientId && form.get("client_secret") === app.clientSecret : req.headers.authorization === basic;
      if (!authed) return refuse(res, "token: client authentication");
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? ""); // single use
      if (form.get("grant_type") !== "authorization_code" || !grant) return json(res, 400, { error: "invalid_grant" });
      if (form.get("redirect_uri") !== grant.redirectUri) return refuse(res, "token: redirect_uri differs");
      if (kind === "x") {
        const verifier = form.get("code_verifier") ?? "";
        if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return refuse(res, "token: PKCE verifier does not match");
      }
      const who = { ...f.person };
      const access_token = `${kind}-access-${++n}`;
      accessTokens.set(access_token, who);
      const out: Record<string, unknown> = { access_token, token_type: "Bearer", expires_in: kind === "x" ? 7200 : 5183999, scope: grant.scope };
      if (f.issueRefreshToken) out.refresh_token = `${kind}-refresh-${n}`;
      if (kind === "linkedin") {
        out.id_token = await new SignJWT({ name: who.name, email: who.email, email_verified: true, locale: "en_US" })
          .setProtectedHeader({ alg: "RS256", kid: jwk.kid, typ: "JWT" })
          .setIssuer(issuer())
          .setAudience(app.clientId)
          .setSubject(who.sub)
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(privateKey);
      }
      f.issued.push({ access_token, refresh_token: out.refresh_token as string | undefined, scope: grant.scope });
      return json(res, 200, out);
    }

    if (u.pathname === paths.userinfo) {
      const who = accessTokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!who) return json(res, 401, { message: "Unauthorized" });
      return kind === "linkedin"
        ? json(res, 200, { sub: who.sub, name: who.name, email: who.email, email_verified: true })
        : json(res, 200, { data: { id: who.sub, name: who.name, username: who.username } }); // X shares no e-mail
    }
    json(res, 404, { message: "not found" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(f, {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  });
}
