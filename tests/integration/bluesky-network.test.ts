import { describe, expect, it } from "vitest";
import { withBluesky } from "../helpers/bluesky";

// The test network itself: the facts about a PDS and a PLC directory that connecting and
// publishing rely on, checked against the real servers so that a change of dev-env shows here
// first.

const bluesky = withBluesky();

const getJson = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("the test Bluesky network", () => {
  it("resolves a handle to its DID, and the DID to the PDS that holds it", async () => {
    const a = await bluesky.net.account("alice");
    const resolved = await getJson(`${bluesky.net.pdsUrl}/xrpc/com.atproto.identity.resolveHandle?handle=${a.handle}`);
    expect(resolved).toEqual({ status: 200, body: { did: a.did } });
    const doc = await getJson(`${bluesky.net.plcUrl}/${encodeURIComponent(a.did)}`);
    expect(doc.body.alsoKnownAs).toEqual([`at://${a.handle}`]);
    expect(doc.body.service).toContainEqual({ id: "#atproto_pds", type: "AtprotoPersonalDataServer", serviceEndpoint: bluesky.net.pdsUrl });
  });

  it("signs in with an app password, and tells it from the account's own password by the token's scope", async () => {
    const a = await bluesky.net.account("bob");
    const signIn = (password: string) =>
      getJson(`${bluesky.net.pdsUrl}/xrpc/com.atproto.server.createSession`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ identifier: a.handle, password }),
      });
    const scope = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString()).scope;
    const app = await signIn(a.appPassword);
    expect(app.status).toBe(200);
    expect(app.body).toMatchObject({ did: a.did, handle: a.handle });
    expect(scope(app.body.accessJwt)).toBe("com.atproto.appPass");
    expect(scope((await signIn(a.password)).body.accessJwt)).toBe("com.atproto.access");
    expect(await signIn("wrong-password")).toMatchObject({ status: 401, body: { error: "AuthenticationRequired" } });
  });
});
