import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { withDatabase } from "../helpers/db";
import { register } from "../helpers/oauth";
import { authorizationServerMetadata } from "@/lib/transports/oauth/metadata";
import { GET as asMetadata } from "@/app/.well-known/oauth-authorization-server/route";

withDatabase();

// "item N" in a test's name is requirement N of docs/interface.md, OAuth 2.1.

describe("authorization-server metadata", () => {
  it("names the issuer and every endpoint and capability (items 1-2)", async () => {
    const res = asMetadata();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const m = await res.json();
    expect(m).toEqual(authorizationServerMetadata());
    expect(m.issuer).toBe("http://localhost:3000");
    expect(m).toMatchObject({
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/oauth/token",
      registration_endpoint: "http://localhost:3000/oauth/register",
      revocation_endpoint: "http://localhost:3000/oauth/revoke",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
    expect(m.token_endpoint_auth_methods_supported.sort()).toEqual(["client_secret_basic", "client_secret_post", "none"]);
  });
});

describe("dynamic client registration (RFC 7591)", () => {
  it("takes half an emoji in the metadata without failing (kept as U+FFFD)", async () => {
    // JSON allows a lone surrogate; PostgreSQL's jsonb, where the metadata is kept, does not.
    const res = await register({
      client_name: "Half \ud83d app",
      redirect_uris: ["http://127.0.0.1:4000/cb"],
      token_endpoint_auth_method: "none",
      "x-\udc00": "\ud800\ud800",
    });
    expect(res.status).toBe(201);
    expect(res.body.client_name).toBe("Half \ufffd app");
  });

  it("keeps application_type (web by default, or native) and refuses other values", async () => {
    const native = await register({
      client_name: "Desk",
      redirect_uris: ["http://127.0.0.1:4000/cb"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    });
    expect(native.status).toBe(201);
    expect(native.body.application_type).toBe("native");
    const web = await register({ client_name: "Web", redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" });
    expect(web.body.application_type).toBe("web");
    const bad = await register({ client_name: "Odd", redirect_uris: ["https://app.example/cb"], application_type: "desktop" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_client_metadata");
  });

  it("registers a public client without a secret (item 8)", async () => {
    const res = await register({
      client_name: "Claude",
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ client_name: "Claude", redirect_uris: ["https://claude.ai/api/mcp/auth_callback"], token_endpoint_auth_method: "none" });
    expect(typeof res.body.client_id).toBe("string");
    expect(Number.isInteger(res.body.client_id_issued_at)).toBe(true);
    expect(res.body.client_secret).toBeUndefined();
  });

  it("gives confidential clients a secret (item 8)", async () => {
    const res = await register({ client_name: "Server app", redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "client_secret_basic" });
    expect(res.status).toBe(201);
    expect(res.body.client_secret.length).toBeGreaterThan(30);
    expect(res.body.client_secret_expires_at).toBe(0);
  });

  it("accepts the redirect URIs real clients use (item 10)", async () => {
    for (const uri of [
      "https://claude.ai/api/mcp/auth_callback",
      "https://claude.com/api/mcp/auth_callback",
      "https://chatgpt.com/connector/oauth/abc123",
      "https://vscode.dev/redirect",
      "http://127.0.0.1:33418/",
      "http://localhost:6274/callback",
      "cursor://anysphere.cursor-mcp/oauth/callback",
    ]) {
      const res = await register({ client_name: "x", redirect_uris: [uri], token_endpoint_auth_method: "none" });
      expect(res.status, uri).toBe(201);
    }
  });

  it("refuses disallowed redirect URIs and bad metadata (item 9)", async () => {
    for (const uri of ["http://evil.example/cb", "javascript:alert(1)", "https://a.example/cb#frag", "not a uri", "data:text/html,hi"]) {
      const res = await register({ client_name: "x", redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      expect(res.body.error).toBe("invalid_redirect_uri");
    }
    expect((await register({ client_name: "x" })).body.error).toBe("invalid_redirect_uri");
    for (const meta of [
      { redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "private_key_jwt" },
      { redirect_uris: ["https://a.example/cb"], grant_types: ["implicit"] },
      { redirect_uris: ["https://a.example/cb"], response_types: ["token"] },
      { redirect_uris: ["https://a.example/cb"], scope: "admin" },
      { redirect_uris: ["https://a.example/cb"], client_name: "" },
    ]) {
      const res = await register(meta);
      expect(res.status, JSON.stringify(meta)).toBe(400);
      expect(res.body.error).toBe("invalid_client_metadata");
    }
  });

  it("refuses oversized URIs and metadata, so a client cannot store whatever it likes (item 9)", async () => {
    const long = `https://app.example/${"a".repeat(2000)}`;
    for (const key of ["client_uri", "logo_uri"]) {
      const res = await register({ client_name: "x", redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none", [key]: long });
      expect(res.status, key).toBe(400);
      expect(res.body.error).toBe("invalid_client_metadata");
      expect(res.body.error_description).toContain(key);
    }
    // Twenty redirect URIs of 1,900 characters each: every one allowed, together 38 KB.
    const many = Array.from({ length: 20 }, (_, i) => `https://app.example/${i}/${"b".repeat(1900)}`);
    const big = await register({ client_name: "x", redirect_uris: many, token_endpoint_auth_method: "none" });
    expect(big.status).toBe(400);
    expect(big.body.error).toBe("invalid_client_metadata");
    const fits = await register({
      client_name: "x",
      redirect_uris: ["https://a.example/cb"],
      token_endpoint_auth_method: "none",
      client_uri: `https://app.example/${"c".repeat(1900)}`,
    });
    expect(fits.status).toBe(201);
  });

  it("refuses client names with control, bidi or zero-width characters that would disguise the app on the consent page", async () => {
    for (const name of ["Claude\u202e", "Cla\u200bude", "\u2066Claude\u2069", "\ufeffClaude", "Claude\u0007", "Claude\nDesktop", "Claude\u200d"]) {
      const res = await register({ client_name: name, redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.error).toBe("invalid_client_metadata");
    }
    // A joiner inside an emoji sequence joins pictures, not names.
    for (const name of ["Claude Desktop — Café 🚀", "Dev 👩‍💻 Desk", "Team 👩🏽‍🚀"]) {
      const fine = await register({ client_name: name, redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" });
      expect(fine.status, name).toBe(201);
    }
  });

  it("limits registrations per client address (item 11)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++)
      statuses.push((await register({ client_name: "x", redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" }, "192.0.2.77")).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    const last = await register({ client_name: "x", redirect_uris: ["https://a.example/cb"] }, "192.0.2.77");
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await register({ client_name: "x", redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" }, "192.0.2.78")).status).toBe(201);
  });

  it("counts IPv6 clients per /64 network (one host has billions of addresses), and IPv4-mapped ones as their IPv4", async () => {
    // Networks of this run's own: counts in Redis outlive a run by two minutes.
    const [a, b, c, d] = randomBytes(4);
    const net = `2001:db8:${a.toString(16)}${b.toString(16).padStart(2, "0")}:${c}`;
    const v4 = `198.18.${c}.${d}`;
    const from = (address: string) => register({ client_name: "x", redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" }, address);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await from(`${net}::${(i + 1).toString(16)}`)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses[30]).toBe(429);
    expect((await from(`${net}:ffff:ffff:ffff:ffff`)).status).toBe(429);
    expect((await from(`${net.toUpperCase().replace("2001:DB8:", "2001:0DB8:")}:0:0:0:abcd`)).status).toBe(429); // the same network, written out
    expect((await from(`${net}1::1`)).status).toBe(201); // another /64 has its own budget

    for (let i = 0; i < 30; i++) expect((await from(i % 2 ? `::ffff:${v4}` : v4)).status).toBe(201);
    const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
    expect((await from(`::FFFF:${hex(198, 18)}:${hex(c, d)}`)).status).toBe(429);
  });
});
