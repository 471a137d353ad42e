import fs from "node:fs";
import type http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkAuthorizeRequest } from "@/lib/transports/oauth/authorize";
import { withDatabase } from "../helpers/db";
import { verifierPair } from "../helpers/oauth";
import { selfSigned } from "../helpers/self-signed";

// Client ID Metadata Documents, fetched in process from a loopback https fake. The fake plays
// several public sites at once, so every address counts as public here (the address checks
// themselves are tested in fetch-document.test.ts and client-metadata.test.ts).
vi.mock("@/lib/core/address-policy.mjs", async (original) => ({
  ...(await original<typeof import("@/lib/core/address-policy.mjs")>()),
  addressAllowed: () => true,
}));

withDatabase();

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cimd-checks-"));
const redirectUri = "http://127.0.0.1:4999/callback";
const hits = new Map<string, number>();
let fake: https.Server;
let base = "";
/** A client_id on a reputable site that is an open redirector to the attacker's document. */
const redirector = () => `${base}/out?to=${encodeURIComponent(`${base}/evil.json`)}`;

const doc = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Reputable app",
  redirect_uris: [redirectUri],
  token_endpoint_auth_method: "none",
  ...extra,
});

function serveFake(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", base);
  hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
  const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  // The redirector, and the attacker's document it leads to, which names the redirector's URL
  // as its client_id (the only thing checked against the URL).
  if (url.pathname === "/out") return void res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
  if (url.pathname === "/evil.json") return json(doc(redirector()));
  if (url.pathname === "/bidi.json") return json(doc(`${base}/bidi.json`, { client_name: "Reputable \u202egnp.exe" }));
  if (url.pathname === "/zero-width.json") return json(doc(`${base}/zero-width.json`, { client_name: "Git\u200bHub" }));
  if (url.pathname === "/plain.json") return json(doc(`${base}/plain.json`));
  res.writeHead(404).end();
}

beforeAll(async () => {
  const tls = selfSigned(dir);
  fake = https.createServer(tls, serveFake);
  await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
  base = `https://localhost:${(fake.address() as AddressInfo).port}`;
  // The fetcher uses the default agent: trust the fake's certificate there, as a deployment
  // trusts a private CA through NODE_EXTRA_CA_CERTS.
  https.globalAgent.options.ca = tls.cert;
});

afterAll(async () => {
  delete https.globalAgent.options.ca;
  await new Promise((r) => fake.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What the authorize endpoint makes of a client_id: the error page's text, or the app's name on the consent page. */
async function authorize(clientId: string) {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: verifierPair().challenge,
    code_challenge_method: "S256",
  });
  const check = await checkAuthorizeRequest(params, "192.0.2.10");
  if (check.ok) return { consentFor: check.request.clientName, describedAt: check.request.metadataHost };
  if ("page" in check) return { page: check.page };
  throw new Error(`unexpected redirect: ${check.redirect}`);
}

describe("Client ID Metadata Documents: what the consent page may be made to say", () => {
  it("refuses a client_id that redirects (an open redirector cannot lend its site's name), and never fetches where it points", async () => {
    const answer = await authorize(redirector());
    expect(answer.consentFor).toBeUndefined();
    expect(answer.page).toMatch(/metadata document could not be used: .*redirect/);
    expect(hits.get("/evil.json") ?? 0).toBe(0);
  });

  it("refuses names with invisible or reordering characters, and shows a plain one", async () => {
    expect((await authorize(`${base}/bidi.json`)).page).toMatch(/client_name/);
    expect((await authorize(`${base}/zero-width.json`)).page).toMatch(/client_name/);
    expect(await authorize(`${base}/plain.json`)).toEqual({ consentFor: "Reputable app", describedAt: new URL(base).host });
  });
});
