import { afterEach, describe, expect, it } from "vitest";
import {
  isLoopbackAddress,
  isLoopbackHost,
  isLoopbackListenAddress,
  isLoopbackRedirectHost,
  LOOPBACK_ADDRESSES,
  originIsLoopback,
} from "@/lib/core/address-policy.mjs";
import { config } from "@/lib/core/config";
import { handleMcp } from "@/lib/transports/mcp/handler";
import { redirectUriProblem, matchesRegistered } from "@/lib/domain/apps/redirect-uris";
import { dnsResolve } from "@/lib/core/outbound-resolve";
import { reconfigure } from "../helpers/env";

// "Loopback" is one definition (lib/core/address-policy.mjs): 127/8, ::1, those inside IPv4-mapped
// and NAT64 addresses, `localhost` and the names under it. Each caller asks it its own
// question; these pin where the questions' answers differ, and where callers that used to
// keep lists of their own now agree.

describe("the address policy", () => {
  it("calls every spelling of this machine loopback, and nothing else", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::7f00:1"]) expect(isLoopbackAddress(ip), ip).toBe(true);
    for (const ip of ["128.0.0.1", "::", "::2", "10.0.0.1", "::ffff:10.0.0.1", "localhost", "127.0.0.256", ""]) expect(isLoopbackAddress(ip), ip).toBe(false);
    for (const host of ["localhost", "app.localhost", "127.0.0.2", "[::1]", "::1", "[::ffff:7f00:1]"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["localhost.example.com", "example.com", "[::2]", "mylocalhost"]) expect(isLoopbackHost(host), host).toBe(false);
    expect(["http://localhost:3000", "http://127.0.0.2", "http://[::1]:8080", "smtp://relay.localhost:25"].map(originIsLoopback)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["https://example.com", "http://10.0.0.1:3000"].map(originIsLoopback)).toEqual([false, false]);
  });

  it("lets the front server listen without APP_URL on loopback addresses and localhost only", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]) expect(isLoopbackListenAddress(host), host).toBe(true);
    // A name under localhost is loopback, but listen() would ask the system's resolver for it.
    for (const host of ["0.0.0.0", "::", "app.localhost", "example.com", "10.0.0.1"]) expect(isLoopbackListenAddress(host), host).toBe(false);
  });

  it("keeps OAuth's loopback redirects to RFC 8252's literals and localhost, narrower than loopback", () => {
    for (const host of ["127.0.0.1", "[::1]", "localhost"]) expect(isLoopbackRedirectHost(host), host).toBe(true);
    for (const host of ["127.0.0.2", "app.localhost", "[::ffff:7f00:1]"]) {
      expect(isLoopbackHost(host), host).toBe(true);
      expect(isLoopbackRedirectHost(host), host).toBe(false);
      expect(redirectUriProblem(`http://${host}/callback`), host).toMatch(/http is allowed only for loopback hosts/);
      expect(matchesRegistered(`http://${host}:5000/callback`, [`http://${host}:4000/callback`]), host).toBe(false);
    }
    expect(redirectUriProblem("http://127.0.0.1/callback")).toBeNull();
    expect(matchesRegistered("http://[::1]:5000/callback", ["http://[::1]:4000/callback"])).toBe(true);
  });

  it("resolves names under localhost to the loopback addresses without asking DNS", async () => {
    // No such server: asking it would fail.
    const resolve = dnsResolve(["127.0.0.1:9"]);
    for (const name of ["localhost", "LOCALHOST", "hooks.localhost", "localhost."]) expect(await resolve(name), name).toEqual(LOOPBACK_ADDRESSES);
  });
});

describe("the MCP endpoint's DNS-rebinding check, on a service on loopback", () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  // Past the check, a request without a token is answered 401; refused by it, 403.
  const status = async (headers: Record<string, string>) =>
    (await handleMcp(new Request(config().mcpUrl, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" }))).status;

  it("accepts any loopback Host and Origin, and refuses the others", async () => {
    expect(originIsLoopback(config().origin)).toBe(true);
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "127.0.0.2:3000", "app.localhost:3000", "LOCALHOST:3000", "localhost"])
      expect(await status({ host }), host).toBe(401);
    for (const host of ["evil.example:3000", "evil.example", "localhost.evil.example", "evil@localhost:3000", "[::2]:3000", "localhost:3000/x"])
      expect(await status({ host }), host).toBe(403);
    for (const origin of ["http://localhost:3000", "http://localhost:5173", "http://127.0.0.2:8080", "http://app.localhost:5173"])
      expect(await status({ origin }), origin).toBe(401);
    for (const origin of ["https://evil.example", "http://localhost.evil.example", "null"]) expect(await status({ origin }), origin).toBe(403);
  });

  it("on a service that is not on loopback, accepts its own origin only and checks no Host", async () => {
    restore = reconfigure({ APP_URL: "https://contentio.example" });
    expect(await status({ host: "contentio.example", origin: "https://contentio.example" })).toBe(401);
    expect(await status({ host: "evil.example" })).toBe(401);
    expect(await status({ origin: "http://localhost:5173" })).toBe(403);
  });

  it("takes a service on any loopback host for one on loopback", async () => {
    restore = reconfigure({ APP_URL: "http://app.localhost:3000" });
    expect(await status({ host: "app.localhost:3000", origin: "http://127.0.0.1:5173" })).toBe(401);
    expect(await status({ host: "evil.example:3000" })).toBe(403);
  });
});
