import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { describe, expect, it } from "vitest";
import * as asMetadata from "@/app/.well-known/oauth-authorization-server/route";
import * as prMcp from "@/app/.well-known/oauth-protected-resource/mcp/route";
import * as prRoot from "@/app/.well-known/oauth-protected-resource/route";
import { config } from "@/lib/core/config";
import { db } from "@/lib/adapters/db";
import { revokeApp } from "@/lib/domain/apps/tokens";
import { handleMcp } from "@/lib/transports/mcp/handler";
import { approveAuthorization, checkAuthorizeRequest } from "@/lib/transports/oauth/authorize";
import { registerEndpoint, tokenEndpoint } from "@/lib/transports/oauth/endpoints";
import { connectedApps } from "@/drizzle/schema";
import { eq } from "drizzle-orm";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

// Every address of the service, reached in process: the SDK's own OAuth code does discovery,
// registration, PKCE and the code exchange exactly as against a deployed server.
const ROUTES: Record<string, (req: Request) => Response | Promise<Response>> = {
  "/mcp": handleMcp,
  "/.well-known/oauth-protected-resource/mcp": () => prMcp.GET(),
  "/.well-known/oauth-protected-resource": () => prRoot.GET(),
  "/.well-known/oauth-authorization-server": () => asMetadata.GET(),
  "/oauth/register": registerEndpoint,
  "/oauth/token": tokenEndpoint,
};
const routedFetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const req = new Request(input, init);
  const route = ROUTES[new URL(req.url).pathname];
  return route ? route(req) : new Response("not found", { status: 404 });
}) as typeof fetch;

/** An assistant's OAuth state; redirectToAuthorization plays the browser and the owner's Allow. */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationFull;
  saved?: OAuthTokens;
  verifier = "";
  code?: string;
  constructor(private ownerId: string) {}
  get redirectUrl() {
    return "http://127.0.0.1:8976/callback";
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test assistant",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: "email profile offline_access",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationFull) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    const check = await checkAuthorizeRequest(url.searchParams);
    if (!check.ok) throw new Error(`authorize refused: ${JSON.stringify(check)}`);
    const back = new URL(await approveAuthorization(this.ownerId, check.request));
    expect(back.searchParams.get("iss")).toBe(config().origin);
    this.code = back.searchParams.get("code")!;
  }
}

const connect = async (provider: TestProvider) => {
  const client = new Client({ name: "sdk-oauth", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(config().mcpUrl), { authProvider: provider, fetch: routedFetch }));
  return client;
};

describe("MCP SDK client with its OAuth authProvider", () => {
  it("discovers, registers, authorizes with PKCE, exchanges the code and calls tools; disconnect cuts it off", async () => {
    const owner = await makeUser();
    const provider = new TestProvider(owner.id);
    await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.code).toBeTruthy();
    const transport = new StreamableHTTPClientTransport(new URL(config().mcpUrl), { authProvider: provider, fetch: routedFetch });
    await transport.finishAuth(provider.code!);
    expect(provider.saved?.access_token).toMatch(/^cto_at_/);
    const client = await connect(provider);
    const created = await client.callTool({ name: "create_draft", arguments: { type: "post", body: "Via OAuth" } });
    expect(created.isError).toBeFalsy();
    // The app appears in Settings > Connections; disconnecting stops its token at once.
    const apps = await (await db()).select().from(connectedApps).where(eq(connectedApps.userId, owner.id));
    expect(apps.length).toBe(2); // the test user's command-line token, and this assistant
    for (const a of apps) await revokeApp(await db(), owner.id, a.id);
    const res = await routedFetch(config().mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${provider.saved!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });
});
