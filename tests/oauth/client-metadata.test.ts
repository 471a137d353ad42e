import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { appInBrowser, press } from "../e2e/browser";
import { freePort, TestServer } from "../e2e/harness";
import { selfSigned } from "../helpers/self-signed";

// Client ID Metadata Documents against the built server: the clients' documents are served by
// a loopback https fake whose self-signed certificate the server trusts through
// NODE_EXTRA_CA_CERTS, as a deployment would trust a private CA.
const srv = new TestServer();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cimd-"));
let fake: https.Server;
let base = "";
let ownerPassword = "";
let callback: URL | undefined;
let cb: http.Server;
let redirectUri = "";
const hits = new Map<string, number>();

const doc = (name: string, extra: Record<string, unknown> = {}) => ({
  client_id: `${base}/clients/${name}.json`,
  client_name: `Metadata ${name}`,
  redirect_uris: [redirectUri],
  token_endpoint_auth_method: "none",
  application_type: "native",
  ...extra,
});

function serveFake(req: http.IncomingMessage, res: http.ServerResponse) {
  const name = /^\/clients\/([a-z-]+)\.json$/.exec(req.url ?? "")?.[1] ?? "";
  hits.set(name, (hits.get(name) ?? 0) + 1);
  const json = (body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(200, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
  if (name === "good") return json(doc("good"), { "cache-control": "max-age=300" });
  if (name === "nostore") return json(doc("nostore"), { "cache-control": "no-store" });
  if (name === "other-id") return json({ ...doc("good") });
  if (name === "big") return json(doc("big", { padding: "x".repeat(20_000) }));
  if (name === "slow") return void setTimeout(() => json(doc("slow")), 8000);
  if (name === "private") {
    res.writeHead(302, { location: `https://127.0.0.1:${(fake.address() as AddressInfo).port}/clients/good.json` });
    return void res.end();
  }
  res.writeHead(404).end();
}

const app = appInBrowser(srv, async () => {
  fake = https.createServer(selfSigned(dir), serveFake); // its certificate stays in dir (cert.pem)
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  base = `https://localhost:${(fake.address() as AddressInfo).port}`;
  const cbPort = await freePort();
  redirectUri = `http://127.0.0.1:${cbPort}/callback`;
  cb = http.createServer((req, res) => {
    const u = new URL(req.url!, `http://127.0.0.1:${cbPort}`);
    if (u.pathname === "/callback") callback = u;
    res.end("ok");
  });
  await new Promise<void>((r) => cb.listen(cbPort, "127.0.0.1", r));
  srv.env.NODE_EXTRA_CA_CERTS = path.join(dir, "cert.pem");
  // One proxy in front, so that a test can come from an address of its own (X-Forwarded-For).
  srv.env.TRUST_PROXY = "1";
  ({ ownerPassword } = await srv.firstStart());
  return [fake, cb];
});

function authorizeUrl(clientId: string, challenge: string, redirect = redirectUri) {
  const u = new URL(`${srv.origin}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: "code",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "s1",
  }))
    u.searchParams.set(k, v);
  return u.toString();
}

/** The authorize endpoint's answer to a signed-out visitor: the sign-in redirect when the request is good, else the error page's text. */
async function signedOutAnswer(clientId: string, redirect = redirectUri) {
  const res = await fetch(authorizeUrl(clientId, "a".repeat(43), redirect), { redirect: "manual" });
  return { status: res.status, location: res.headers.get("location") ?? "", text: res.status === 200 ? await res.text() : "" };
}

describe("Client ID Metadata Documents", () => {
  it("are advertised in the authorization-server metadata", async () => {
    const meta = await (await fetch(`${srv.origin}/.well-known/oauth-authorization-server`)).json();
    expect(meta.client_id_metadata_document_supported).toBe(true);
  });

  it("a good document: consent in the browser, a code for its redirect URI, tokens for the URL client_id", async () => {
    const clientId = `${base}/clients/good.json`;
    const verifier = oauth.generateRandomCodeVerifier();
    const page = await app.newPage();
    await page.goto(authorizeUrl(clientId, await oauth.calculatePKCECodeChallenge(verifier)));
    await page.getByLabel("E-mail").fill("owner@example.com");
    await page.getByLabel("Password").fill(ownerPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => u.pathname === "/oauth/authorize");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toMatch(/Connect Metadata good/);
    expect(await page.getByText(`It describes itself at ${new URL(base).host}`).count()).toBe(1);
    await press(page.getByRole("button", { name: "Allow" }));
    await expect.poll(() => callback?.searchParams.get("code")).toBeTruthy();
    await page.waitForURL((u) => u.href.startsWith(redirectUri)); // its load over before the next navigation
    expect(callback!.searchParams.get("state")).toBe("s1");
    const res = await fetch(`${srv.origin}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: callback!.searchParams.get("code")!,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      }),
    });
    const tokens = await res.json();
    expect(res.status, JSON.stringify(tokens)).toBe(200);
    expect((await srv.api("search_content", {}, tokens.access_token)).status).toBe(200);
    // The document was fetched once and is reused while its max-age lasts.
    const before = hits.get("good");
    expect((await signedOutAnswer(clientId)).location).toContain("/signin");
    expect(hits.get("good")).toBe(before);
    await page.goto(`${srv.origin}/settings/connections`);
    expect(await page.locator("li", { hasText: "Metadata good" }).count()).toBeGreaterThan(0);
    await page.close();
  }, 120_000);

  it("a document with no-store is fetched again on every use", async () => {
    const clientId = `${base}/clients/nostore.json`;
    expect((await signedOutAnswer(clientId)).location).toContain("/signin");
    expect((await signedOutAnswer(clientId)).location).toContain("/signin");
    expect(hits.get("nostore")).toBe(2);
  });

  it("enforces the document's redirect_uris, and refuses a document naming another client_id", async () => {
    const wrong = await signedOutAnswer(`${base}/clients/good.json`, "http://127.0.0.1:1/elsewhere");
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain("did not register");
    const other = await signedOutAnswer(`${base}/clients/other-id.json`);
    expect(other.text).toContain("names another client_id");
  });

  it("refuses an oversized or slow document, and a redirect (here to a private address) without following it", async () => {
    expect((await signedOutAnswer(`${base}/clients/big.json`)).text).toContain("larger than");
    const t0 = Date.now();
    expect((await signedOutAnswer(`${base}/clients/slow.json`)).text).toContain("too long");
    expect(Date.now() - t0).toBeLessThan(7500);
    expect((await signedOutAnswer(`${base}/clients/private.json`)).text).toContain("redirects elsewhere (HTTP 302)");
    expect(hits.get("good")).toBe(1); // the redirect was never followed
  }, 30_000);

  it("a URL client_id that never authorized cannot use the token endpoint", async () => {
    const res = await fetch(`${srv.origin}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: "x",
        redirect_uri: redirectUri,
        client_id: `${base}/clients/unknown.json`,
        code_verifier: "v".repeat(43),
      }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("invalid_client");
  });

  it("fetches at most 30 documents a minute for one network address, signed in or not", async () => {
    // Each new client_id is a fetch by this server (and a stored client): a flood from one
    // address stops fetching at the OAuth endpoints' 30 a minute.
    // A /64 of this run's own (addresses are counted by /64; Redis keeps counts two minutes).
    const from = `2001:db8:${randomBytes(4)
      .toString("hex")
      .replace(/(.{4})/, "$1:")}::1`;
    const before = hits.get("") ?? 0; // names with digits: the fake answers 404, after a fetch
    const pages: string[] = [];
    for (let i = 0; i < 33; i++) {
      const res = await fetch(authorizeUrl(`${base}/clients/flood-${i}.json`, "a".repeat(43)), { redirect: "manual", headers: { "x-forwarded-for": from } });
      pages.push(await res.text());
    }
    expect(pages.slice(0, 30).every((t) => t.includes("answered HTTP 404"))).toBe(true);
    expect(pages.slice(30).every((t) => t.includes("Too many apps"))).toBe(true);
    expect((hits.get("") ?? 0) - before).toBe(30);
    // Another address is not held up.
    expect((await signedOutAnswer(`${base}/clients/nostore.json`)).location).toContain("/signin");
  }, 60_000);
});
