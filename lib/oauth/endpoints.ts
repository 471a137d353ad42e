import { randomUUID } from "node:crypto";
import { toAppError } from "@/lib/errors/present";
import { consumeOAuthRequest } from "@/lib/ratelimit";
import { authenticateClient, readForm } from "./client-auth";
import { OAUTH_CORS, OAuthError, oauthErrorResponse, oauthJson } from "./errors";
import { registerClient } from "./register";
import { exchangeCode, refresh, revoke } from "./token";

/** The caller's address as the server in front of us reports it. */
function clientAddress(req: Request): string {
  return req.headers.get("x-forwarded-for")?.split(",")[0].trim() || req.headers.get("x-real-ip") || "unknown";
}

async function limited(req: Request, endpoint: string) {
  const rate = await consumeOAuthRequest(`${endpoint}:${clientAddress(req)}`);
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
    let body: unknown;
    try {
      body = JSON.parse(await req.text());
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
    const form = await readForm(req);
    const client = await authenticateClient(form, req.headers.get("authorization"));
    await revoke(client, form);
    return oauthJson(200, {});
  });
