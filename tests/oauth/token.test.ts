import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { hashToken, revokeApp } from "@/lib/domain/apps/tokens";
import { authorizationCodes, oauthClients, tokens } from "@/drizzle/schema";
import { approvalForOwner, pendingApprovals } from "@/lib/domain/accounts/connections";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { authorizedCode, register, revoke, token } from "../helpers/oauth";

withDatabase();

// "item N" in a test's name is requirement N of docs/interface.md, OAuth 2.1.

const exchange = (c: Awaited<ReturnType<typeof authorizedCode>>, over: Record<string, string | string[]> = {}) =>
  token({ grant_type: "authorization_code", code: c.code, redirect_uri: c.redirect, client_id: c.client.client_id, code_verifier: c.pkce.verifier, ...over });

const fetchAny = (accessToken: string) => call("search_content", {}, { token: accessToken });

describe("token endpoint", () => {
  it("exchanges a code for tokens that call the API, with no-store headers (item 20)", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const res = await exchange(c);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "email offline_access" });
    expect(res.body.refresh_token).toEqual(expect.any(String));
    expect((await fetchAny(res.body.access_token)).status).toBe(200);
  });

  it("issues no refresh token without offline_access", async () => {
    const u = await makeUser();
    const res = await exchange(await authorizedCode(u.id, { scope: "email" }));
    expect(res.body.refresh_token).toBeUndefined();
  });

  it("refuses a reused code and revokes what it issued (item 18)", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const first = await exchange(c);
    const again = await exchange(c);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    expect((await fetchAny(first.body.access_token)).status).toBe(401);
  });

  it("a code redeemed twice at once: one exchange wins, and every token issued from the code is refused afterwards (item 18)", async () => {
    const u = await makeUser();
    for (let round = 0; round < 3; round++) {
      const c = await authorizedCode(u.id);
      const both = await Promise.all([exchange(c), exchange(c)]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
      for (const r of both.filter((r) => r.status === 200)) {
        expect((await fetchAny(r.body.access_token)).status).toBe(401);
        const again = await token({ grant_type: "refresh_token", refresh_token: r.body.refresh_token, client_id: c.client.client_id });
        expect(again.body.error).toBe("invalid_grant");
      }
    }
  });

  it("refuses an expired code (item 18)", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    await (
      await db()
    )
      .update(authorizationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authorizationCodes.userId, u.id));
    expect((await exchange(c)).body.error).toBe("invalid_grant");
  });

  it("needs the identical redirect_uri and the matching verifier (item 19)", async () => {
    const u = await makeUser();
    expect((await exchange(await authorizedCode(u.id), { redirect_uri: "http://127.0.0.1:33418/other" })).body.error).toBe("invalid_grant");
    expect((await exchange(await authorizedCode(u.id), { code_verifier: "a".repeat(43) })).body.error).toBe("invalid_grant");
    const missing = await authorizedCode(u.id);
    const res = await token({ grant_type: "authorization_code", code: missing.code, redirect_uri: missing.redirect, client_id: missing.client.client_id });
    expect(res.body.error).toBe("invalid_request");
  });

  it("answers the RFC errors (item 21)", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    expect((await token({ grant_type: "password", client_id: c.client.client_id })).body.error).toBe("unsupported_grant_type");
    expect((await token({ client_id: c.client.client_id })).body.error).toBe("invalid_request");
    const unknown = await token({
      grant_type: "authorization_code",
      code: c.code,
      redirect_uri: c.redirect,
      client_id: "00000000-0000-4000-8000-000000000000",
      code_verifier: c.pkce.verifier,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_client");
    const other = (await register({ client_name: "Other", redirect_uris: [c.redirect], token_endpoint_auth_method: "none" })).body;
    expect((await exchange(c, { client_id: other.client_id })).body.error).toBe("invalid_grant");
    expect((await exchange(c, { resource: "https://elsewhere.example/api" })).body.error).toBe("invalid_target");
  });

  it("authenticates confidential clients with Basic or POST, and answers 401 with WWW-Authenticate for bad Basic (items 8, 21)", async () => {
    const reg = (await register({ client_name: "Conf", redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "client_secret_basic" })).body;
    const basic = (id: string, secret: string) => Buffer.from(`${id}:${secret}`).toString("base64");
    const bad = await token(
      { grant_type: "authorization_code", code: "x", redirect_uri: "https://app.example/cb", code_verifier: "a".repeat(43) },
      { basic: basic(reg.client_id, "wrong") },
    );
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toMatch(/^Basic/);
    const good = await token(
      { grant_type: "authorization_code", code: "x", redirect_uri: "https://app.example/cb", code_verifier: "a".repeat(43) },
      { basic: basic(reg.client_id, reg.client_secret) },
    );
    expect(good.body.error).toBe("invalid_grant"); // authenticated; only the code is wrong
    const post = await token({
      grant_type: "authorization_code",
      code: "x",
      redirect_uri: "https://app.example/cb",
      code_verifier: "a".repeat(43),
      client_id: reg.client_id,
      client_secret: reg.client_secret,
    });
    expect(post.body.error).toBe("invalid_grant");
    const none = await token({
      grant_type: "authorization_code",
      code: "x",
      redirect_uri: "https://app.example/cb",
      code_verifier: "a".repeat(43),
      client_id: reg.client_id,
    });
    expect(none.status).toBe(401);
  });

  it("sets the audience from resource (item 22)", async () => {
    const u = await makeUser();
    const mcpOnly = await exchange(await authorizedCode(u.id, { resource: ["http://localhost:3000/mcp"] }));
    expect((await fetchAny(mcpOnly.body.access_token)).status).toBe(401);
    const narrowed = await exchange(await authorizedCode(u.id), { resource: "http://localhost:3000/api/v1" });
    expect((await fetchAny(narrowed.body.access_token)).status).toBe(200);
  });

  it("rotates refresh tokens, with a grace window, and revokes the grant on later reuse (item 23)", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const first = await exchange(c);
    const refresh = (rt: string, over: Record<string, string> = {}) =>
      token({ grant_type: "refresh_token", refresh_token: rt, client_id: c.client.client_id, ...over });
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    // Within the grace window the previous token still works (concurrent refreshes).
    expect((await refresh(first.body.refresh_token)).status).toBe(200);
    // Narrowing is allowed, widening never.
    expect((await refresh(second.body.refresh_token, { scope: "email profile" })).body.error).toBe("invalid_scope");
    const narrow = await refresh(second.body.refresh_token, { scope: "email" });
    expect(narrow.body.scope).toBe("email");
    // Without offline_access the client asked to stop refreshing: no new refresh token.
    expect(narrow.body.refresh_token).toBeUndefined();
    // Past the grace window, reuse of a rotated token revokes the whole grant.
    await (
      await db()
    )
      .update(tokens)
      .set({ rotatedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(tokens.userId, u.id));
    const reuse = await refresh(first.body.refresh_token);
    expect(reuse.body.error).toBe("invalid_grant");
    expect((await fetchAny(narrow.body.access_token)).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("a rotated refresh token works once more within the grace window, not again: a third use revokes the grant", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const first = await exchange(c);
    const refresh = (rt: string) => token({ grant_type: "refresh_token", refresh_token: rt, client_id: c.client.client_id });
    const rotated = await refresh(first.body.refresh_token);
    // A client whose answer was lost asks again: one more pair.
    const retried = await refresh(first.body.refresh_token);
    expect([rotated.status, retried.status]).toEqual([200, 200]);
    // Someone else holding the same token would mint pair after pair, each a chain of its own.
    const third = await refresh(first.body.refresh_token);
    expect(third.body.error).toBe("invalid_grant");
    for (const pair of [rotated, retried]) expect((await fetchAny(pair.body.access_token)).status).toBe(401);
  });

  it("two refreshes with one token at the same moment both get a pair, and the grant stays", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const first = await exchange(c);
    const refresh = (rt: string) => token({ grant_type: "refresh_token", refresh_token: rt, client_id: c.client.client_id });
    const both = await Promise.all([refresh(first.body.refresh_token), refresh(first.body.refresh_token)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    for (const pair of both) expect((await fetchAny(pair.body.access_token)).status).toBe(200);
  });

  it("access tokens live about an hour (item 24)", async () => {
    const u = await makeUser();
    const res = await exchange(await authorizedCode(u.id));
    const [row] = await (
      await db()
    )
      .select()
      .from(tokens)
      .where(eq(tokens.tokenHash, hashToken(res.body.access_token)));
    expect(res.body.expires_in).toBe(3600);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(3600_000 + 5000);
  });
});

describe("revocation and disconnect", () => {
  it("answers 200 for any token; revoking a refresh token revokes its grant (item 25)", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const t = await exchange(c);
    expect((await revoke({ token: "nonsense", client_id: c.client.client_id })).status).toBe(200);
    expect((await revoke({ token: t.body.refresh_token, client_id: c.client.client_id })).status).toBe(200);
    expect((await fetchAny(t.body.access_token)).status).toBe(401);
  });

  it("revoking an access token stops it on the next call", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const t = await exchange(c);
    await revoke({ token: t.body.access_token, client_id: c.client.client_id });
    expect((await fetchAny(t.body.access_token)).status).toBe(401);
  });

  it("disconnecting the app makes every token answer 401 on the very next call and refuses refresh (item 26)", async () => {
    const u = await makeUser();
    const c = await authorizedCode(u.id);
    const t = await exchange(c);
    expect((await fetchAny(t.body.access_token)).status).toBe(200);
    const [row] = await (
      await db()
    )
      .select({ appId: tokens.appId })
      .from(tokens)
      .where(eq(tokens.tokenHash, hashToken(t.body.access_token)));
    await revokeApp(await db(), u.id, row.appId);
    expect((await fetchAny(t.body.access_token)).status).toBe(401);
    const r = await token({ grant_type: "refresh_token", refresh_token: t.body.refresh_token, client_id: c.client.client_id });
    expect(r.body.error).toBe("invalid_grant");
  });

  it("another user's disconnect of the same app id revokes nothing", async () => {
    const owner = await makeUser();
    const stranger = await makeUser();
    expect(await revokeApp(await db(), stranger.id, owner.appId)).toBe(false);
    expect(await revokeApp(await db(), stranger.id, "not-a-uuid")).toBe(false);
    expect((await fetchAny(owner.token)).status).toBe(200);
  });

  it("an approval page names where a self-registered app comes from, which a new name it gives itself does not change", async () => {
    const u = await makeUser({ publishing: true });
    const c = await authorizedCode(u.id);
    const access = (await exchange(c)).body.access_token as string;
    const d = await call("create_draft", { type: "post", body: "Asked for by a self-registered app" }, { token: access });
    const asked = await call("delete_draft", { type: "post", id: d.body.id }, { token: access });
    expect(asked.body.error.code).toBe("confirmation_required");
    // The app renames itself (a metadata document can, whenever it is fetched again).
    await (await db()).update(oauthClients).set({ name: "Claude" }).where(eq(oauthClients.id, c.client.client_id));
    const shown = await approvalForOwner(await db(), u.id, asked.body.error.confirmation.id);
    expect(shown).toMatchObject({ appName: "Claude", selfRegistered: true, appFrom: "127.0.0.1:33418" });
    // So does the list of what waits for approval (Connections, and the draft's page).
    const [listed] = await pendingApprovals(await db(), u.id);
    expect(listed).toMatchObject({ id: asked.body.error.confirmation.id, appName: "Claude", selfRegistered: true, appFrom: "127.0.0.1:33418" });
  });
});
