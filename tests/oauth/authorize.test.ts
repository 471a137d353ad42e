import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { checkAuthorizeRequest, denyAuthorization } from "@/lib/transports/oauth/authorize";
import { redirectHost as appRedirectHost } from "@/lib/domain/accounts/connections";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { authorizedCode, register, verifierPair } from "../helpers/oauth";

withDatabase();

// "item N" in a test's name is requirement N of docs/interface.md, OAuth 2.1.

async function client(redirects = ["https://app.example/cb", "http://127.0.0.1/callback"]) {
  return (await register({ client_name: "My app", redirect_uris: redirects, token_endpoint_auth_method: "none" })).body;
}

function params(clientId: string, over: Record<string, string | null> = {}) {
  const base: Record<string, string | null> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: "https://app.example/cb",
    code_challenge: verifierPair().challenge,
    code_challenge_method: "S256",
    scope: "email",
    state: "xyz",
    ...over,
  };
  return new URLSearchParams(Object.entries(base).filter(([, v]) => v !== null) as [string, string][]);
}

const redirectOf = (check: Awaited<ReturnType<typeof checkAuthorizeRequest>>) => {
  if (check.ok || !("redirect" in check)) throw new Error(`expected a redirect: ${JSON.stringify(check)}`);
  return new URL(check.redirect);
};

describe("authorization requests", () => {
  it("names where the code goes as the consent page and Connections show it: an app's own scheme is named, not taken for the web host it spells", async () => {
    const app = await client(["evilapp://claude.ai/api/mcp/auth_callback", "https://app.example/cb", "cursor://anysphere.cursor-retrieval/oauth"]);
    const shown = async (redirect_uri: string) => {
      const check = await checkAuthorizeRequest(params(app.client_id, { redirect_uri }));
      if (!check.ok) throw new Error(JSON.stringify(check));
      return check.request.redirectHost;
    };
    expect(await shown("evilapp://claude.ai/api/mcp/auth_callback")).toBe("evilapp://claude.ai");
    expect(await shown("https://app.example/cb")).toBe("app.example");
    expect(await shown("cursor://anysphere.cursor-retrieval/oauth")).toBe("cursor://anysphere.cursor-retrieval");
    expect(appRedirectHost(["evilapp://claude.ai/x"])).toBe("evilapp://claude.ai");
    expect(appRedirectHost(["myapp:/callback"])).toBe("myapp:");
    // Every place it may send a code is named: an app registering a well-known address beside
    // its own is not named after the well-known one alone.
    expect(appRedirectHost(["https://claude.ai/api/mcp/auth_callback", "https://evil.example/cb", "https://claude.ai/other"])).toBe("claude.ai, evil.example");
    const many = ["a", "b", "c", "d", "e"].map((h) => `https://${h}.example/cb`);
    expect(appRedirectHost(many)).toBe("a.example, b.example, c.example and 2 more");
  });

  it("shows an error page, never a redirect, for an unknown client or unregistered redirect URI (item 12)", async () => {
    const c = await client();
    for (const p of [
      params("00000000-0000-4000-8000-000000000000"),
      params("not-a-uuid"),
      params(c.client_id, { redirect_uri: "https://evil.example/cb" }),
      params(c.client_id, { redirect_uri: "https://app.example/cb/../other" }),
      params(c.client_id, { redirect_uri: "https://app.example/cb?x=1" }),
    ]) {
      const check = await checkAuthorizeRequest(p);
      expect(check.ok).toBe(false);
      expect("page" in check && typeof check.page).toBe("string");
    }
  });

  it("matches redirect URIs exactly except a loopback port (item 13)", async () => {
    const c = await client();
    expect((await checkAuthorizeRequest(params(c.client_id, { redirect_uri: "http://127.0.0.1:51234/callback" }))).ok).toBe(true);
    const otherPath = await checkAuthorizeRequest(params(c.client_id, { redirect_uri: "http://127.0.0.1:51234/other" }));
    expect("page" in otherPath).toBe(true);
    const https = await checkAuthorizeRequest(params(c.client_id, { redirect_uri: "https://app.example:8443/cb" }));
    expect("page" in https).toBe(true);
  });

  it("sends PKCE and parameter problems back to the client with state and iss (item 14)", async () => {
    const c = await client();
    const cases: [Record<string, string | null>, string][] = [
      [{ code_challenge: null }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge_method: null }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "email admin" }, "invalid_scope"],
      [{ resource: "https://elsewhere.example/api" }, "invalid_target"],
    ];
    for (const [over, error] of cases) {
      const u = redirectOf(await checkAuthorizeRequest(params(c.client_id, over)));
      expect(u.origin + u.pathname).toBe("https://app.example/cb");
      expect(u.searchParams.get("error"), JSON.stringify(over)).toBe(error);
      expect(u.searchParams.get("state")).toBe("xyz");
      expect(u.searchParams.get("iss")).toBe("http://localhost:3000");
    }
  });

  it(
    "refuses a parameter given twice (RFC 6749 3.1): " +
      "a second client or redirect URI on the error page, " +
      "others back to the client; resource may repeat",
    async () => {
      const c = await client();
      const other = await client();
      const twice = (k: string, v: string) => {
        const p = params(c.client_id);
        p.append(k, v);
        return p;
      };
      for (const p of [twice("client_id", other.client_id), twice("redirect_uri", "https://app.example/cb")]) {
        const check = await checkAuthorizeRequest(p);
        expect("page" in check && check.page).toMatch(/more than once/);
      }
      for (const k of ["scope", "code_challenge", "state"]) {
        const u = redirectOf(await checkAuthorizeRequest(twice(k, "email")));
        expect(u.searchParams.get("error"), k).toBe("invalid_request");
      }
      const both = params(c.client_id, { resource: `${config().baseUrl}` });
      both.append("resource", config().mcpUrl);
      expect((await checkAuthorizeRequest(both)).ok).toBe(true);
    },
  );

  it("tolerates a missing state and unknown parameters (item 17)", async () => {
    const c = await client();
    const p = params(c.client_id, { state: null, prompt: "consent", foo: "bar" });
    const check = await checkAuthorizeRequest(p);
    expect(check.ok).toBe(true);
  });

  it("denial returns access_denied with state and iss; approval one code with state and iss (item 17)", async () => {
    const c = await client();
    const check = await checkAuthorizeRequest(params(c.client_id));
    if (!check.ok) throw new Error("refused");
    const denied = new URL(denyAuthorization(check.request));
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe("xyz");
    expect(denied.searchParams.get("iss")).toBe("http://localhost:3000");
    const u = await makeUser();
    const { back } = await authorizedCode(u.id);
    expect(back.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(back.searchParams.get("state")).toBe("st-1");
    expect(back.searchParams.get("iss")).toBe("http://localhost:3000");
  });
});
