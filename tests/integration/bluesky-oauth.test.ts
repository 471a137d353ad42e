import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { checkConnections } from "@/lib/adapters/platforms/check";
import { CALLBACK_PATH, clientMetadata } from "@/lib/adapters/platforms/bluesky/oauth";
import { GET as metadataDocument } from "@/app/oauth/bluesky/client-metadata.json/route";
import { AppError } from "@/lib/core/errors";
import { authAccounts, networkSignIns, tweetDrafts } from "@/drizzle/schema";
import { listAccounts } from "@/lib/domain/accounts/accounts";
import { finishOAuthConnect, startOAuthConnect } from "@/lib/domain/accounts/oauth";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { publishNowOp } from "@/lib/operations/publishing/publish-now";
import { call, expectOk, makeUser, type TestUser } from "../helpers/api";
import { signInOnPds, withBluesky, type BlueskyAccount } from "../helpers/bluesky";
import { withDatabase } from "../helpers/db";
import { configured } from "../helpers/env";
import { asOwner } from "../helpers/owner";
import { approved, row } from "../helpers/publishing";
import { launchBrowser } from "../e2e/browser";

// Connecting Bluesky with atproto OAuth against a real PDS (dev-env's, which serves its own
// authorization server and sign-in page): handle -> DID -> PDS, PAR with PKCE, the owner signing
// in on the PDS's page (Chromium), the code exchanged for DPoP-bound tokens stored with their
// key; posts made through that session; Disconnect revokes it. And the attacks on the way back:
// another owner's sign-in, one used twice, a PDS at a private address.

withDatabase();
const bluesky = withBluesky();
let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const start = async (u: TestUser, handle: string) => startOAuthConnect(await db(), u.id, ports().platforms, "bluesky", handle);
const finish = async (u: TestUser, params: URLSearchParams) => finishOAuthConnect(await db(), u.id, ports().platforms, "bluesky", params);
const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
};
const connection = async (did: string) => (await (await db()).select().from(authAccounts).where(eq(authAccounts.providerAccountId, did)))[0];

/**
 * The owner at the PDS's sign-in page `url`, signing in as `a` and authorizing: resolves with
 * the query the PDS sends the browser back with (the callback is not served here: the browser's
 * request to it is read and left to fail).
 */
async function signIn(url: string, a: BlueskyAccount): Promise<URLSearchParams> {
  const context = await browser!.newContext();
  const page = await context.newPage();
  let back: URL | undefined;
  // Read off the request the browser makes, not a route that answers it: Chromium's headless
  // shell follows the PDS's redirect to the callback without handing it to page.route().
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname === CALLBACK_PATH) back = u;
  });
  await page.goto(url);
  await signInOnPds(page, a);
  await expect.poll(() => back, { timeout: 20_000 }).toBeDefined();
  await context.close();
  return back!.searchParams;
}

describe("Connect Bluesky with atproto OAuth", () => {
  it("signs in on the PDS's own page, stores DPoP-bound tokens with their key, and posts through that session", async () => {
    const u = await makeUser({ publishing: true });
    const a = await bluesky.net.account("oauth");
    const url = new URL(await start(u, `@${a.handle.toUpperCase()}`));
    // The PDS's authorization endpoint, with a pushed request (PAR) and atproto's loopback client.
    expect(`${url.origin}${url.pathname}`).toBe(`${bluesky.net.pdsUrl}/oauth/authorize`);
    expect([...url.searchParams.keys()].sort()).toEqual(["client_id", "request_uri"]);
    expect(url.searchParams.get("client_id")).toMatch(
      /^http:\/\/localhost\?redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fsettings%2Fconnections%2Fbluesky%2Fcallback&scope=atproto%20transition%3Ageneric$/,
    );

    const account = await finish(u, await signIn(url.toString(), a));
    expect(account).toMatchObject({ platform: "micro", network: "bluesky", handle: `@${a.handle}`, state: "connected" });
    const c = await connection(a.did);
    expect(c).toMatchObject({ userId: u.id, type: "oauth", token_type: "DPoP", scope: "atproto transition:generic", serviceUrl: bluesky.net.pdsUrl });
    expect(c.dpop).toMatchObject({ iss: bluesky.net.pdsUrl, key: { kty: "EC" } });
    expect(typeof (c.dpop!.key as { d?: unknown }).d).toBe("string"); // the private key: the tokens are useless without it
    expect(await bluesky.net.oauthSessions(a.did)).toBe(1);
    // Bound to the key: the access token alone, as a bearer, is refused by the PDS.
    const bare = await fetch(`${bluesky.net.pdsUrl}/xrpc/com.atproto.server.getSession`, { headers: { authorization: `Bearer ${c.access_token}` } });
    expect(bare.ok).toBe(false);
    expect(bare.status).toBeLessThan(500);

    // A thread, through the OAuth session: records read back from the PDS.
    const parts = [`Hello from OAuth 🦋 #atproto ${randomUUID().slice(0, 8)}`, `Second part ${randomUUID().slice(0, 8)}`];
    const d = expectOk(
      await call("create_draft", { type: "tweet", account_id: account.account_id, body: parts[0], thread: parts.slice(1) }, { token: u.token }),
      createDraftOp.output,
    ) as { id: string };
    const out = expectOk(await approved(u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
    const records = (await bluesky.net.records(a.did)).reverse();
    expect(records.map((r) => r.value.text)).toEqual(parts);
    expect(out.platform_post_id).toBe(records[0].uri);
    expect(records[0].value.facets).toEqual([
      {
        index: { byteStart: Buffer.byteLength("Hello from OAuth 🦋 "), byteEnd: Buffer.byteLength("Hello from OAuth 🦋 #atproto") },
        features: [{ $type: "app.bsky.richtext.facet#tag", tag: "atproto" }],
      },
    ]);
    expect(records[1].value.reply).toEqual({ root: { uri: records[0].uri, cid: records[0].cid }, parent: { uri: records[0].uri, cid: records[0].cid } });

    // Published again under the keys it stored (as after an outcome settled wrongly): the PDS holds them, nothing is posted twice.
    const keys = (await row("tweet", d.id)).publishProgress!.keys!;
    await (
      await db()
    )
      .update(tweetDrafts)
      .set({ status: "draft", publishProgress: { parts: [], media: {}, keys } })
      .where(eq(tweetDrafts.id, d.id));
    expectOk(await approved(u, "publish_now", { type: "tweet", id: d.id }), publishNowOp.output);
    expect((await bluesky.net.records(a.did)).map((r) => r.uri).sort()).toEqual(records.map((r) => r.uri).sort());

    // An expired access token is renewed by the OAuth client (refresh tokens rotate), the new pair stored in the connection.
    await (
      await db()
    )
      .update(authAccounts)
      .set({ expires_at: Math.floor(Date.now() / 1000) - 60 })
      .where(eq(authAccounts.providerAccountId, a.did));
    const later = expectOk(
      await call("create_draft", { type: "tweet", account_id: account.account_id, body: "After a renewal" }, { token: u.token }),
      createDraftOp.output,
    ) as {
      id: string;
    };
    expectOk(await approved(u, "publish_now", { type: "tweet", id: later.id }), publishNowOp.output);
    const renewed = await connection(a.did);
    expect(renewed).toMatchObject({ status: "connected", dpop: c.dpop, refreshLockedUntil: null });
    expect(renewed.access_token).not.toBe(c.access_token);
    expect(renewed.refresh_token).not.toBe(c.refresh_token);
    expect(renewed.expires_at! * 1000).toBeGreaterThan(Date.now());
    expect((await bluesky.net.records(a.did))[0].value.text).toBe("After a renewal");

    // Check connection, three at once on an expired token: one renewal (under the account's lock), all answered.
    await (
      await db()
    )
      .update(authAccounts)
      .set({ expires_at: Math.floor(Date.now() / 1000) - 60 })
      .where(eq(authAccounts.providerAccountId, a.did));
    const checks = await Promise.all([1, 2, 3].map(async () => (await checkConnections(await db(), u.id)).find((x) => x.network === "Bluesky")));
    for (const x of checks) expect(x).toMatchObject({ reachable: true, detail: `GET com.atproto.server.getSession answered as @${a.handle}` });
    expect(await connection(a.did)).toMatchObject({ status: "connected", refreshLockedUntil: null });

    // Disconnect: the session is revoked on the PDS, and nothing of it is kept here.
    expect(await asOwner(u, "change_account", { account_id: account.account_id, action: "disconnect" })).toMatchObject({
      status: 200,
      body: { changed: true },
    });
    expect(await connection(a.did)).toBeUndefined();
    expect(await bluesky.net.oauthSessions(a.did)).toBe(0);
  }, 120_000);

  it("a sign-in finishes only for the owner who started it, and only once", async () => {
    const alice = await makeUser({ publishing: true });
    const mallory = await makeUser({ publishing: true });
    const a = await bluesky.net.account("bound");
    const params = await signIn(await start(alice, a.handle), a);

    // Another owner brought back with Alice's sign-in (a link Mallory sends, or Alice's leaked): nothing is connected for them.
    const theirs = await refusal(finish(mallory, params));
    expect(theirs.message).toBe("This Bluesky sign-in is not one you started here, or it was already used or has expired; nothing was connected.");
    expect((await listAccounts(await db(), mallory.id)).filter((x) => x.network === "bluesky")).toEqual([]);
    expect(await connection(a.did)).toBeUndefined();

    // Alice's own is still hers to finish.
    await finish(alice, params);
    const first = await connection(a.did);
    expect(first).toMatchObject({ userId: alice.id, type: "oauth" });

    // The same answer again (a replayed callback): refused, and the connection is as it was.
    expect((await refusal(finish(alice, params))).message).toMatch(/^This Bluesky sign-in is not one you started here, or it was already used/);
    expect(await connection(a.did)).toMatchObject({ access_token: first.access_token, dpop: first.dpop });
    expect(await bluesky.net.oauthSessions(a.did)).toBe(1);
    const left = await (
      await db()
    )
      .select()
      .from(networkSignIns)
      .where(and(eq(networkSignIns.userId, alice.id)));
    expect(left).toEqual([]);
  }, 120_000);

  it("an account another owner connected stays theirs, the new session revoked on the PDS; its owner's reconnect replaces theirs", async () => {
    const first = await makeUser({ publishing: true });
    const second = await makeUser({ publishing: true });
    const a = await bluesky.net.account("taken");
    await finish(first, await signIn(await start(first, a.handle), a));
    const params = await signIn(await start(second, a.handle), a);
    expect(await bluesky.net.oauthSessions(a.did)).toBe(1); // the code is not exchanged yet
    expect((await refusal(finish(second, params))).message).toBe("This Bluesky account is connected to another user of this service.");
    expect(await connection(a.did)).toMatchObject({ userId: first.id });
    expect(await bluesky.net.oauthSessions(a.did)).toBe(1); // the second one's session, made and revoked

    // Its owner connecting it again: the new session replaces the old one, which is revoked on the PDS.
    const old = await connection(a.did);
    await finish(first, await signIn(await start(first, a.handle), a));
    expect((await connection(a.did)).access_token).not.toBe(old.access_token);
    expect(await bluesky.net.oauthSessions(a.did)).toBe(1);
  }, 120_000);

  it("a handle whose DID names a PDS at a private address is refused before anything is sent there", async () => {
    const u = await makeUser({ publishing: true });
    const a = await bluesky.net.account("private");
    await bluesky.net.movePds(a.did, "http://10.255.255.1:2583");
    const e = await refusal(start(u, a.handle));
    expect(e.code).toBe("action_failed");
    expect(e.message).toBe(
      "This service does not connect to the Bluesky server 10.255.255.1:2583 (10.255.255.1 is a private, loopback or reserved address); nothing was sent.",
    );
    expect(await (await db()).select().from(networkSignIns).where(eq(networkSignIns.userId, u.id))).toEqual([]);
  }, 60_000);

  it("off loopback, the client is the metadata document the service serves at its client_id, as Bluesky's client accepts it", async () => {
    await configured({ APP_URL: "https://contentio.example" }, async () => {
      const doc = await metadataDocument().json();
      expect(doc).toEqual({
        client_id: "https://contentio.example/oauth/bluesky/client-metadata.json",
        client_name: "Contentio",
        client_uri: "https://contentio.example",
        redirect_uris: ["https://contentio.example/settings/connections/bluesky/callback"],
        scope: "atproto transition:generic",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
        application_type: "web",
        dpop_bound_access_tokens: true,
      });
      expect(clientMetadata()).toEqual(doc);
      // The library validates a client's metadata as it is made (atproto's rules for a discoverable client).
      const { NodeOAuthClient } = await import("@atproto/oauth-client-node");
      const none = { get: async () => undefined, set: async () => {}, del: async () => {} };
      expect(
        () => new NodeOAuthClient({ clientMetadata: doc, stateStore: none, sessionStore: none, requestLock: (_n, fn) => Promise.resolve(fn()) }),
      ).not.toThrow();
    });
  });
});
