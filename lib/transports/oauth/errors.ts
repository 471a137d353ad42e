// OAuth endpoints keep RFC 6749 error bodies on purpose ({ error, error_description }),
// because OAuth client libraries parse exactly those.
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const OAUTH_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, GET, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version",
  "Access-Control-Max-Age": "86400",
};

export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}) {
  return Response.json(body, { status, headers: { ...OAUTH_CORS, "Cache-Control": "no-store", Pragma: "no-cache", ...headers } });
}

export function oauthErrorResponse(e: OAuthError) {
  return oauthJson(e.status, { error: e.error, error_description: e.description }, e.headers);
}
