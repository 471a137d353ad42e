import { hashToken } from "@/lib/domain/apps/tokens";
import { db } from "@/lib/adapters/db";
import { oauthClients } from "@/drizzle/schema";
import { randomBytes } from "node:crypto";
import { clientNameProblem, pageUriProblem } from "./client-fields";
import { OAuthError } from "./errors";
import { redirectUriProblem } from "../../domain/apps/redirect-uris";
import { parseScopes } from "./params";

const AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"];
const GRANTS = ["authorization_code", "refresh_token"];
// What a client may have kept (every field is bounded, but 20 redirect URIs of 2,000
// characters add up): a real client's registration is well under 1 KiB.
const MAX_METADATA_BYTES = 16 * 1024;

const bad = (d: string) => new OAuthError("invalid_client_metadata", d);

/** Dynamic client registration (RFC 7591). Unknown metadata is ignored, as the RFC says. */
export async function registerClient(body: unknown) {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw bad("The body must be a JSON object of client metadata.");
  const m = body as Record<string, unknown>;
  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 20) throw new OAuthError("invalid_redirect_uri", "redirect_uris must list 1 to 20 URIs.");
  for (const u of uris) {
    const problem = redirectUriProblem(u);
    if (problem) throw new OAuthError("invalid_redirect_uri", `redirect_uris: ${problem}.`);
  }
  const method = m.token_endpoint_auth_method ?? "client_secret_basic";
  if (typeof method !== "string" || !AUTH_METHODS.includes(method)) throw bad(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(", ")}.`);
  const grants = m.grant_types ?? ["authorization_code"];
  if (!Array.isArray(grants) || grants.length === 0 || grants.some((g) => !GRANTS.includes(g as string)))
    throw bad(`grant_types may contain ${GRANTS.join(", ")}.`);
  const responses = m.response_types ?? ["code"];
  if (!Array.isArray(responses) || responses.some((r) => r !== "code")) throw bad("response_types may contain only code.");
  const name = m.client_name ?? "Unnamed app";
  if (typeof name !== "string" || name.trim().length === 0 || name.length > 200) throw bad("client_name must be 1 to 200 characters.");
  const nameProblem = clientNameProblem(name);
  if (nameProblem) throw bad(`${nameProblem}.`);
  if (m.scope !== undefined && (typeof m.scope !== "string" || !parseScopes(m.scope))) throw bad("scope may contain email, profile and offline_access.");
  const appType = m.application_type ?? "web";
  if (appType !== "web" && appType !== "native") throw bad("application_type must be web or native.");
  for (const key of ["client_uri", "logo_uri"]) {
    const problem = m[key] === undefined ? null : pageUriProblem(key, m[key]);
    if (problem) throw bad(`${problem}.`);
  }

  const secret = method === "none" ? null : randomBytes(32).toString("base64url");
  const metadata = {
    client_name: name.trim().toWellFormed(), // as the database keeps it (half an emoji: U+FFFD)
    redirect_uris: uris as string[],
    grant_types: [...new Set(grants as string[])],
    response_types: ["code"],
    token_endpoint_auth_method: method,
    application_type: appType,
    ...(typeof m.scope === "string" && { scope: m.scope }),
    ...(typeof m.client_uri === "string" && { client_uri: m.client_uri }),
    ...(typeof m.logo_uri === "string" && { logo_uri: m.logo_uri }),
  };
  if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) throw bad(`The client metadata must be at most ${MAX_METADATA_BYTES / 1024} KiB.`);
  const [row] = await (
    await db()
  )
    .insert(oauthClients)
    .values({
      name: metadata.client_name,
      redirectUris: metadata.redirect_uris,
      tokenEndpointAuthMethod: method,
      secretHash: secret ? hashToken(secret) : null,
      selfRegistered: true,
      metadata,
    })
    .returning({ id: oauthClients.id, createdAt: oauthClients.createdAt });
  return {
    client_id: row.id,
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    ...metadata,
    ...(secret && { client_secret: secret, client_secret_expires_at: 0 }),
  };
}
