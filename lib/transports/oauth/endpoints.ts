import { randomUUID } from "node:crypto";
import { toAppError } from "@/lib/core/errors/present";
import { clientAddress } from "@/lib/transports/http/client-address";
import { consumeOAuthRequest } from "@/lib/adapters/ratelimit";
import { authenticateClient, readForm, readOAuthBody } from "./client-auth";
import { OAUTH_CORS, OAuthError, oauthErrorResponse, oauthJson } from "./errors";
import { registerClient } from "./register";
import { exchangeCode, refresh, revoke } from "./token";

// Counted per endpoint and client address before the body is read, so that a flood is
// turned away without the server reading, parsing or looking up anything.
async function limited(req: Request, endpoint: string) {
  const rate = await consumeOAuthRequest(endpoint, clientAddress(req.headers));
  if (!rate.allowed) {
    throw new OAuthError("slow_down", "Too many requests from this address; retry later.", 429, { "Retry-After": String(rate.retryAfter) });
  }
}

/** Runs an OAuth endpoint: RFC error bodies, no internals on unexpected errors. */
async function guarded(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof OAuthError) return oauthErrorResponse(e);
    const err = toAppError(e, randomUUID());
    const status = err.code === "temporarily_unavailable" ? 503 : 500;
    return oauthJson(status, { error: status === 503 ? "temporarily_unavailable" : "server_error", error_description: err.message });
  }
}

export const preflight = () => new Response(null, { status: 204, headers: OAUTH_CORS });

export const registerEndpoint = (req: Request) =>
  guarded(async () => {
    await limited(req, "register");
    const text = await readOAuthBody(req);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new OAuthError("invalid_client_metadata", "The body must be JSON client metadata.");
    }
    return oauthJson(201, await registerClient(body));
  });

export const tokenEndpoint = (req: Request) =>
  guarded(async () => {
    await limited(req, "token");
    const form = await readForm(req);
    const client = await authenticateClient(form, req.headers.get("authorization"));
    const grant = form.get("grant_type");
    if (grant === "authorization_code") return oauthJson(200, await exchangeCode(client, form));
    if (grant === "refresh_token") return oauthJson(200, await refresh(client, form));
    throw new OAuthError(grant ? "unsupported_grant_type" : "invalid_request", grant ? `grant_type ${grant} is not supported.` : "grant_type is required.");
  });

export const revokeEndpoint = (req: Request) =>
  guarded(async () => {
    await limited(req, "revoke");
    const form = await readForm(req);
    const client = await authenticateClient(form, req.headers.get("authorization"));
    await revoke(client, form);
    return oauthJson(200, {});
  });
