import { createHash, randomBytes } from "node:crypto";
import { config } from "@/lib/core/config";
import { approveAuthorization, checkAuthorizeRequest } from "@/lib/transports/oauth/authorize";
import { registerEndpoint, revokeEndpoint, tokenEndpoint } from "@/lib/transports/oauth/endpoints";

export const verifierPair = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

let addr = 0;
/** Each test gets its own client address so the per-address limits stay out of the way. */
const freshAddress = () => `10.9.${Math.floor(++addr / 250)}.${addr % 250}`;

export async function register(meta: Record<string, unknown>, address = freshAddress()) {
  const res = await registerEndpoint(
    new Request(`${config().origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": address },
      body: JSON.stringify(meta),
    }),
  );
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export async function token(form: Record<string, string | string[]>, opts: { basic?: string; address?: string } = {}) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": opts.address ?? freshAddress() };
  if (opts.basic) headers.authorization = `Basic ${opts.basic}`;
  const res = await tokenEndpoint(new Request(`${config().origin}/oauth/token`, { method: "POST", headers, body }));
  return { status: res.status, headers: res.headers, body: await res.json() };
}

export async function revoke(form: Record<string, string>, address = freshAddress()) {
  const res = await revokeEndpoint(
    new Request(`${config().origin}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
      body: new URLSearchParams(form),
    }),
  );
  return { status: res.status, body: await res.json() };
}

/** Registration, authorization approved by `userId`, and the code it produced. */
export async function authorizedCode(userId: string, opts: { scope?: string; resource?: string[]; redirect?: string } = {}) {
  const redirect = opts.redirect ?? "http://127.0.0.1:33418/callback";
  const client = (
    await register({
      client_name: "Test app",
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    })
  ).body;
  const pkce = verifierPair();
  const params = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirect,
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    scope: opts.scope ?? "email offline_access",
    state: "st-1",
  });
  for (const r of opts.resource ?? []) params.append("resource", r);
  const check = await checkAuthorizeRequest(params);
  if (!check.ok) throw new Error(`authorize refused: ${JSON.stringify(check)}`);
  const back = new URL(await approveAuthorization(userId, check.request));
  return { client, pkce, redirect, code: back.searchParams.get("code")!, back };
}
