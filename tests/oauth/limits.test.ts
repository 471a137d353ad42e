import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/core/config";
import { registerEndpoint, revokeEndpoint, tokenEndpoint } from "@/lib/transports/oauth/endpoints";
import { MAX_OAUTH_BODY_BYTES } from "@/lib/transports/oauth/client-auth";
import { withDatabase } from "../helpers/db";
import { register, revoke } from "../helpers/oauth";

withDatabase();

// Addresses are random so that runs sharing one Redis never share a budget.
const someAddress = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

const ENDPOINTS = [
  { name: "register", handler: registerEndpoint, type: "application/json" },
  { name: "token", handler: tokenEndpoint, type: "application/x-www-form-urlencoded" },
  { name: "revoke", handler: revokeEndpoint, type: "application/x-www-form-urlencoded" },
] as const;

/** A body that never ends, counting how much of it the server pulled. */
function endlessBody() {
  const chunk = new Uint8Array(16 * 1024).fill(0x61);
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, state };
}

const post = (handler: (r: Request) => Promise<Response>, path: string, init: RequestInit & { duplex?: "half" }) =>
  handler(new Request(`${config().origin}/oauth/${path}`, { method: "POST", ...init }));

describe("OAuth request bodies", () => {
  it.each(ENDPOINTS)("$name stops reading an endless body at the cap and answers 413 in the OAuth error shape", async ({ name, handler, type }) => {
    const { stream, state } = endlessBody();
    const res = await post(handler, name, { headers: { "content-type": type, "x-forwarded-for": someAddress() }, body: stream, duplex: "half" });
    expect(res.status).toBe(413);
    const body = await res.json();
    expect(body).toEqual({ error: "invalid_request", error_description: "The body is larger than 64 KiB." });
    expect(state.pulled).toBeLessThanOrEqual(MAX_OAUTH_BODY_BYTES + 4 * 16 * 1024); // the cap plus what the stream queued ahead
  });

  it.each(ENDPOINTS)("$name refuses a declared length over the cap without reading the body", async ({ name, handler, type }) => {
    const { stream, state } = endlessBody();
    const res = await post(handler, name, {
      headers: { "content-type": type, "content-length": String(10 * 1024 * 1024), "x-forwarded-for": someAddress() },
      body: stream,
      duplex: "half",
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("invalid_request");
    expect(state.pulled).toBeLessThanOrEqual(2 * 16 * 1024); // at most what the stream queued on its own
  });

  it.each(ENDPOINTS)("$name still reads a body just under the cap", async ({ name, handler, type }) => {
    const filler = "a".repeat(MAX_OAUTH_BODY_BYTES - 200);
    const body =
      type === "application/json"
        ? JSON.stringify({
            client_name: "Padded",
            redirect_uris: ["https://a.example/cb"],
            token_endpoint_auth_method: "none",
            software_id: filler.slice(0, MAX_OAUTH_BODY_BYTES - 300),
          })
        : `client_id=${filler}`;
    const res = await post(handler, name, { headers: { "content-type": type, "x-forwarded-for": someAddress() }, body });
    expect(res.status).not.toBe(413);
  });
});

describe("OAuth limits per client address", () => {
  it("limits revocation requests per address, like registration and token requests", async () => {
    const address = someAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await revoke({ token: "cto_at_unknown", client_id: "not-a-client" }, address)).status);
    expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
    expect(statuses[30]).toBe(429);
    const res = await revoke({ token: "cto_at_unknown", client_id: "not-a-client" }, address);
    expect(res.body.error).toBe("slow_down");
    expect((await revoke({ token: "cto_at_unknown", client_id: "not-a-client" }, someAddress())).status).not.toBe(429);
  });

  it("counts by the address the connection came from, not by addresses the client wrote in front of it", async () => {
    // With TRUST_PROXY 0, `npm start` leaves only the connection's address in X-Forwarded-For;
    // an in-process request that still carries a client-written list is counted by its last entry.
    const address = someAddress();
    const meta = { client_name: "x", redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await register(meta, `203.0.113.${i}, ${address}`)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses[30]).toBe(429);
  });
});
