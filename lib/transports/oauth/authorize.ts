import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { hashToken } from "@/lib/domain/apps/tokens";
import { authorizationCodes, connectedApps, oauthClients } from "@/drizzle/schema";
import { isMetadataDocumentUrl, resolveMetadataClient, type ClientRow } from "./client-metadata";
import { OAuthError } from "./errors";
import { CODE_TTL_MS, parseResources, parseScopes } from "./params";
import { matchesRegistered, redirectHost } from "../../domain/apps/redirect-uris";
import { isUuid } from "@/lib/core/ids";

export type AuthorizeRequest = {
  clientId: string;
  clientName: string;
  selfRegistered: boolean;
  redirectUri: string;
  redirectHost: string;
  /** The host of a metadata-document client_id: who vouches for the app's name. */
  metadataHost?: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
  resource: string[];
};

export type AuthorizeCheck = { ok: true; request: AuthorizeRequest } | { ok: false; redirect: string } | { ok: false; page: string };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/; // base64url of a SHA-256

const ONCE = ["client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method"];

/** The redirect back to the client, always with state (when given) and iss (RFC 9207). */
function back(redirectUri: string, params: Record<string, string | null>): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  u.searchParams.set("iss", config().origin);
  return u.toString();
}

/**
 * Checks an authorization request. An unknown client or an unregistered redirect URI gets an
 * error page (never a redirect: it could be an open redirector); every other problem is sent
 * back to the client's redirect URI. Unknown parameters and a missing state are tolerated.
 * `address` is the caller's network address: fetching a client's metadata document is
 * counted against it.
 */
export async function checkAuthorizeRequest(params: URLSearchParams, address = "unknown"): Promise<AuthorizeCheck> {
  // RFC 6749 §3.1: no parameter twice (resource may be: RFC 8707). Which of two client_ids or
  // redirect_uris counted would be up to whoever reads it; none does.
  const twice = ONCE.find((k) => params.getAll(k).length > 1);
  if (twice && (twice === "client_id" || twice === "redirect_uri"))
    return { ok: false, page: `The app's request gave ${twice} more than once, so it was stopped.` };
  const clientId = params.get("client_id") ?? "";
  let client: ClientRow | undefined;
  if (isMetadataDocumentUrl(clientId)) {
    const resolved = await resolveMetadataClient(clientId, address);
    if (!resolved.ok) return { ok: false, page: resolved.problem };
    client = resolved.client;
  } else if (isUuid(clientId)) {
    [client] = await (await db()).select().from(oauthClients).where(eq(oauthClients.id, clientId));
  }
  if (!client) return { ok: false, page: "This app is not registered with this service (unknown client_id)." };
  const asked = params.get("redirect_uri");
  const redirectUri = asked ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : null);
  if (!redirectUri || !matchesRegistered(redirectUri, client.redirectUris)) {
    return { ok: false, page: "The app asked to send you back to an address it did not register, so the request was stopped." };
  }
  const state = params.get("state");
  const fail = (error: string, description: string): AuthorizeCheck => ({
    ok: false,
    redirect: back(redirectUri, { error, error_description: description, state }),
  });
  if (twice) return fail("invalid_request", `${twice} must be given once.`);
  if (params.get("response_type") !== "code") return fail("unsupported_response_type", "response_type must be code.");
  const challenge = params.get("code_challenge");
  if (!challenge) return fail("invalid_request", "code_challenge is required (PKCE with S256).");
  if (params.get("code_challenge_method") !== "S256") return fail("invalid_request", "code_challenge_method must be S256.");
  if (!CHALLENGE.test(challenge)) return fail("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier.");
  const scopes = parseScopes(params.get("scope"));
  if (!scopes) return fail("invalid_scope", "scope may contain email, profile and offline_access.");
  let resource: string[];
  try {
    resource = parseResources(params.getAll("resource"));
  } catch (e) {
    return fail("invalid_target", (e as OAuthError).description);
  }
  return {
    ok: true,
    request: {
      clientId: client.id,
      clientName: client.name,
      selfRegistered: client.selfRegistered,
      redirectUri,
      redirectHost: redirectHost(redirectUri),
      ...(client.metadataUrl ? { metadataHost: new URL(client.metadataUrl).host } : {}),
      scopes,
      state,
      codeChallenge: challenge,
      resource,
    },
  };
}

/**
 * The owner approved: the grant (one connected app per user and client, reused while it is
 * not disconnected) and a single-use code, returned in the redirect.
 */
export async function approveAuthorization(userId: string, request: AuthorizeRequest): Promise<string> {
  const d = await db();
  const code = randomBytes(32).toString("base64url");
  await d.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: connectedApps.id })
      .from(connectedApps)
      .where(and(eq(connectedApps.userId, userId), eq(connectedApps.clientId, request.clientId), isNull(connectedApps.revokedAt)));
    const appId =
      existing?.id ??
      (await tx.insert(connectedApps).values({ userId, clientId: request.clientId, scopes: request.scopes }).returning({ id: connectedApps.id }))[0].id;
    if (existing) await tx.update(connectedApps).set({ scopes: request.scopes }).where(eq(connectedApps.id, appId));
    await tx.insert(authorizationCodes).values({
      codeHash: hashToken(code),
      clientId: request.clientId,
      userId,
      appId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: request.scopes,
      audience: request.resource,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
  });
  return back(request.redirectUri, { code, state: request.state });
}

export function denyAuthorization(request: AuthorizeRequest): string {
  return back(request.redirectUri, { error: "access_denied", error_description: "The user declined.", state: request.state });
}

/** PKCE S256: base64url(SHA-256(verifier)). */
export const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/** The CSRF purpose of one consent form: bound to the exact authorization request. */
export const consentPurpose = (query: string) => `authorize:${createHash("sha256").update(query).digest("base64url")}`;
