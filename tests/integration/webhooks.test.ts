import { pbkdf2, randomUUID } from "node:crypto";
import { createSocket } from "node:dgram";
import { lookup as dnsLookup } from "node:dns/promises";
import { promisify } from "node:util";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/core/config";
import { issueCommandLineToken } from "@/lib/domain/owner/users";
import { notifyOwners } from "@/lib/domain/owner/notifications";
import type { Mail } from "@/lib/domain/ports";
import { DISCONNECTED_APP_ENDPOINT, revokeApp } from "@/lib/domain/apps/tokens";
import { db } from "@/lib/adapters/db";
import { openApiDocument } from "@/lib/transports/discovery/openapi";
import { listWebhooksOp } from "@/lib/operations/webhooks/list-webhooks";
import { manageWebhooksOp } from "@/lib/operations/webhooks/manage-webhooks";
import { PublishError, type Platform } from "@/lib/domain/networks/platform";
import { ports, replacePorts, type Ports } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import { announceConnections } from "@/lib/domain/webhooks/connection-events";
import { checkReceipts } from "@/lib/domain/publishing/receipts";
import { claim, deliverDue, pruneOld } from "@/lib/adapters/webhooks/deliver";
import { deliveryLog, manageWebhooks, resendDelivery } from "@/lib/domain/webhooks/endpoints";
import { ownerContext } from "@/lib/domain/owner/owner";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { httpSender } from "@/lib/adapters/webhooks/sender";
import { dnsResolve } from "@/lib/core/outbound-resolve";
import { addressAllowed } from "@/lib/core/address-policy.mjs";
import { EVENT_DATA, envelopeSchema, SUBSCRIBABLE, type EventType } from "@/lib/domain/webhooks/events";
import { authAccounts, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { approved, draft } from "../helpers/publishing";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

// Webhooks end to end in process: real operations and engines cause the events, the real
// deliverer sends them over HTTP to a receiver on loopback that verifies every delivery with
// the standardwebhooks library. Time moves through the deliverer's injected clock.

withDatabase();
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
afterEach(() => replacePorts());

const at = (ms: number) => () => new Date(Date.now() + ms);
const H = 3600_000;
const deliver = async (offsetMs = 0) => deliverDue(await db(), { clock: at(offsetMs) });

async function hook(u: TestUser, path: string, events: readonly string[] = SUBSCRIBABLE) {
  const res = await call("manage_webhooks", { action: "create", url: `${rx.url}${path}`, events, description: "test" }, { token: u.token });
  const body = expectOk(res, manageWebhooksOp.output);
  return { id: body.webhook.id as string, secret: body.secret as string };
}

const payloads = (path: string, secret: string) => rx.on(path).map((r) => rx.verify(r, secret));

/** The real ports with some replaced, for one deliverer (the process's own stay as they are). */
const replacedPorts = (replaced: Partial<Ports>): Ports => ({ ...ports(), ...replaced });

/** A name server on loopback answering every A query with `address` (and AAAA with no data). */
async function fakeDns(address: string) {
  const server = createSocket("udp4");
  server.on("message", (q, from) => {
    let end = 12;
    while (q[end] !== 0) end += q[end] + 1; // the question's name, label by label
    const question = q.subarray(12, end + 5);
    const isA = q.readUInt16BE(end + 1) === 1;
    const header = Buffer.alloc(12);
    q.copy(header, 0, 0, 2); // the query's id
    header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(isA ? 1 : 0, 6);
    const answer = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...address.split(".").map(Number)]);
    server.send(Buffer.concat([header, question, ...(isA ? [answer] : [])]), from.port, from.address);
  });
  await new Promise<void>((r) => server.bind(0, "127.0.0.1", r));
  return { port: server.address().port, close: () => server.close() };
}

describe("endpoints", () => {
  it("creates, lists, updates, pauses and deletes endpoints; the secret is shown only on create and rotate", async () => {
    const u = await makeUser();
    const created = await hook(u, "/crud", ["draft.created", "post.published"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = expectOk(await call("list_webhooks", {}, { token: u.token }), listWebhooksOp.output);
    expect(list.webhooks).toEqual([
      {
        id: created.id,
        url: `${rx.url}/crud`,
        events: ["draft.created", "post.published"],
        description: "test",
        status: "active",
        created_at: expect.any(String),
        last_delivery_at: null,
      },
    ]);
    expect(JSON.stringify(list)).not.toContain("whsec_");
    const upd = expectOk(
      await call("manage_webhooks", { action: "update", webhook_id: created.id, events: ["post.failed"], paused: true, description: null }, { token: u.token }),
      manageWebhooksOp.output,
    );
    expect(upd).toMatchObject({ webhook: { events: ["post.failed"], status: "paused", description: null }, secret: null });
    const test = await call("manage_webhooks", { action: "test", webhook_id: created.id }, { token: u.token });
    expectError(test, 422, "action_failed");
    const rot = expectOk(await call("manage_webhooks", { action: "rotate_secret", webhook_id: created.id }, { token: u.token }), manageWebhooksOp.output);
    expect(rot.secret).toMatch(/^whsec_/);
    expect(rot.secret).not.toBe(created.secret);
    const del = expectOk(await call("manage_webhooks", { action: "delete", webhook_id: created.id }, { token: u.token }), manageWebhooksOp.output);
    expect(del.secret).toBeNull();
    expect(expectOk(await call("list_webhooks", {}, { token: u.token }), listWebhooksOp.output).webhooks).toEqual([]);
  });

  it("pages with the cursor codec", async () => {
    const u = await makeUser();
    for (let i = 0; i < 3; i++) await hook(u, `/page${i}`);
    const first = expectOk(await call("list_webhooks", { limit: 2 }, { token: u.token }), listWebhooksOp.output);
    expect(first.webhooks).toHaveLength(2);
    const second = expectOk(await call("list_webhooks", { limit: 2, cursor: first.next_cursor }, { token: u.token }), listWebhooksOp.output);
    expect(second.webhooks).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    expect(new Set([...first.webhooks, ...second.webhooks].map((w: { id: string }) => w.id)).size).toBe(3);
    expectError(await call("list_webhooks", { cursor: "bm9wZQ" }, { token: u.token }), 400, "invalid_request");
    // A forged cursor in year 0, which PostgreSQL has not: refused, not a server error.
    const year0 = Buffer.from(JSON.stringify({ k: "webhooks", t: "0000-01-01T00:00:00.000Z", i: first.webhooks[0].id })).toString("base64url");
    expectError(await call("list_webhooks", { cursor: year0 }, { token: u.token }), 400, "invalid_request");
    // Or with an id that is 36 characters of hyphens, which no UUID column takes.
    const noUuid = Buffer.from(JSON.stringify({ k: "webhooks", t: first.webhooks[1].created_at, i: "-".repeat(36) })).toString("base64url");
    expectError(await call("list_webhooks", { cursor: noUuid }, { token: u.token }), 400, "invalid_request");
  });

  it("disconnecting an app pauses the endpoints it added, saying why; another app's go on", async () => {
    const u = await makeUser();
    const gone = await hook(u, "/added-by-gone-app");
    const otherApp = await issueCommandLineToken(await db(), { email: u.email, appName: "Other app", audience: [config().baseUrl] });
    const stays = await hook({ ...u, token: otherApp.access_token, appId: otherApp.app_id }, "/added-by-other-app");
    expect(await revokeApp(await db(), u.id, u.appId)).toBe(true);
    const rows = await (await db()).select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, u.id));
    expect(rows.find((r) => r.id === gone.id)).toMatchObject({ status: "paused", pausedReason: DISCONNECTED_APP_ENDPOINT });
    expect(rows.find((r) => r.id === stays.id)).toMatchObject({ status: "active", pausedReason: null });
    // What happens next reaches only the endpoint whose app is still connected.
    await draft({ ...u, token: otherApp.access_token, appId: otherApp.app_id }, "post", "After the disconnect");
    await deliver();
    expect(payloads("/added-by-other-app", stays.secret).map((p) => p.type)).toContain("draft.created");
    expect(rx.on("/added-by-gone-app")).toEqual([]);
  });

  it("an app that points the owner's endpoint elsewhere or re-keys it answers for it: its disconnect pauses it, and only the owner resumes it", async () => {
    const u = await makeUser();
    const owner = ownerContext(await db(), { id: u.id, ...(await getProfile(await db(), u.id))! }, ports());
    const events = ["draft.created"] as const;
    const pointed = await manageWebhooks(owner, { action: "create", url: `${rx.url}/owners-receiver`, events: [...events] });
    const rekeyed = await manageWebhooks(owner, { action: "create", url: `${rx.url}/owners-other-receiver`, events: [...events] });
    const app = { token: u.token };
    expectOk(await call("manage_webhooks", { action: "update", webhook_id: pointed.webhook.id, url: `${rx.url}/apps-receiver` }, app), manageWebhooksOp.output);
    const stolen = expectOk(await call("manage_webhooks", { action: "rotate_secret", webhook_id: rekeyed.webhook.id }, app), manageWebhooksOp.output);
    expect(stolen.secret).toMatch(/^whsec_/); // the app now holds the only current secret
    // The owner's Settings form sends the address back unchanged with an edit of something
    // else: that is no choice of address, and the app still answers for it.
    await manageWebhooks(owner, { action: "update", webhook_id: pointed.webhook.id, url: `${rx.url}/apps-receiver`, description: "Renamed" });
    const other = await issueCommandLineToken(await db(), { email: u.email, appName: "Other app", audience: [config().baseUrl] });
    expect(await revokeApp(await db(), u.id, u.appId)).toBe(true);

    const rows = await (await db()).select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, u.id));
    for (const id of [pointed.webhook.id, rekeyed.webhook.id]) {
      expect(rows.find((r) => r.id === id)).toMatchObject({ status: "paused", pausedReason: DISCONNECTED_APP_ENDPOINT });
    }
    // Another app cannot send the events back there; pointing it at its own receiver is its own choice.
    const resume = await call("manage_webhooks", { action: "update", webhook_id: pointed.webhook.id, paused: false }, { token: other.access_token });
    expectError(resume, 422, "action_failed");
    expect(resume.body.error.hint).toContain("Settings > Webhooks");
    await draft({ ...u, token: other.access_token, appId: other.app_id }, "post", "After the disconnect");
    await deliver();
    expect(rx.on("/apps-receiver")).toEqual([]);
    // The owner may resume either, in person.
    const back = await manageWebhooks(owner, { action: "update", webhook_id: rekeyed.webhook.id, paused: false });
    expect(back.webhook.status).toBe("active");
    // The page's forms send ids back: one that is no UUID is a missing endpoint, not a database error.
    await expect(manageWebhooks(owner, { action: "delete", webhook_id: "not-an-id" })).rejects.toMatchObject({ code: "action_failed" });
    expect(await resendDelivery(await db(), u.id, "not-an-id")).toBe(false);
  });

  it("another user's endpoint is invisible: list, manage, delivery log and resend", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const h = await hook(a, "/private");
    await draft(a);
    expect(expectOk(await call("list_webhooks", {}, { token: b.token }), listWebhooksOp.output).webhooks).toEqual([]);
    const missing = await call("manage_webhooks", { action: "delete", webhook_id: randomUUID() }, { token: b.token });
    expectError(missing, 422, "action_failed");
    for (const action of ["update", "delete", "rotate_secret", "test"]) {
      const res = await call("manage_webhooks", { action, webhook_id: h.id }, { token: b.token });
      expectError(res, 422, "action_failed");
      expect(res.body.error.message).toBe(missing.body.error.message);
    }
    expect(await deliveryLog(await db(), b.id, h.id)).toEqual([]);
    const [mine] = await deliveryLog(await db(), a.id, h.id);
    expect(mine).toBeDefined();
    expect(await resendDelivery(await db(), b.id, mine.id)).toBe(false);
    expect(await resendDelivery(await db(), a.id, mine.id)).toBe(true);
  });

  it("refuses URLs that are not https or point at private, link-local or metadata addresses", async () => {
    const u = await makeUser();
    for (const url of [
      "http://example.com/hook",
      "ftp://example.com/hook",
      "https://10.0.0.8/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://192.168.1.1/",
      "https://[fd00:ec2::254]/",
      "https://[::ffff:a00:1]/",
      "https://user:pw@example.com/hook",
      "not a url",
    ]) {
      expectError(await call("manage_webhooks", { action: "create", url, events: ["draft.created"] }, { token: u.token }), 400, "invalid_request");
    }
    // A public origin: loopback is someone else's machine now.
    replacePorts({ config: () => ({ ...config(), origin: "https://contentio.example" }) });
    for (const url of [`${rx.url}/x`, "https://localhost/x", "https://127.0.0.1/x", "https://[::1]/x"]) {
      expectError(await call("manage_webhooks", { action: "create", url, events: ["draft.created"] }, { token: u.token }), 400, "invalid_request");
    }
  });
});

describe("events", () => {
  it("fires every event kind from its real cause, each signed and shaped as documented", async () => {
    const u = await makeUser({ publishing: true });
    const all = `/all/${u.id}`; // this user's alone (a second try has a receiver of its own)
    const h = await hook(u, all);
    // draft.created, draft.updated
    const d1 = await draft(u, "post", "First post for the webhook test");
    expect((await call("update_draft", { type: "post", id: d1.id, body: "First post, edited" }, { token: u.token })).status).toBe(200);
    // approval.requested, approval.decided, draft.scheduled, then draft.unscheduled
    const when = new Date(Date.now() + 2 * H).toISOString();
    expect((await approved(u, "schedule_content", { type: "post", id: d1.id, scheduled_for: when })).status).toBe(200);
    expect((await call("unschedule_content", { type: "post", id: d1.id }, { token: u.token })).status).toBe(200);
    expect((await approved(u, "schedule_content", { type: "post", id: d1.id, scheduled_for: when })).status).toBe(200);
    // post.published: the scheduler publishes it (to the sandbox) when due
    await runDue(await db(), { clock: at(2 * H + 1000) });
    // post.failed: a draft that missed its time by more than SCHEDULE_MAX_LATENESS_SECONDS
    const d2 = await draft(u, "post", "Second post, it will miss its time");
    const later = new Date(Date.now() + 3 * H).toISOString();
    expect((await approved(u, "schedule_content", { type: "post", id: d2.id, scheduled_for: later })).status).toBe(200);
    await runDue(await db(), { clock: at(3 * H + (config().SCHEDULE_MAX_LATENESS_SECONDS + 60) * 1000) });
    // post.unknown: the platform's answer never came
    const d3 = await draft(u, "post", "Third post, the platform times out");
    const timesOut: Platform = {
      name: "pronet",
      kind: "sandbox",
      probe: async () => ({ reachable: true, detail: "" }),
      metrics: async () => new Map(),
      comment: async () => ({ postId: "c", url: null }),
      publish: async () => {
        throw new PublishError("unknown", "no answer within 20 s; it may have been posted");
      },
    };
    replacePorts({ platforms: { ...ports().platforms, open: async () => timesOut } });
    expect((await approved(u, "publish_now", { type: "post", id: d3.id })).status).toBe(422);
    replacePorts();
    // post.removed: read back after publishing (a receipt), the network no longer has the first post
    const dropped: Platform = { ...timesOut, receipt: async () => ({ state: "gone", said: "The network no longer has this post (404)" }) };
    replacePorts({ platforms: { ...ports().platforms, open: async () => dropped } });
    expect((await checkReceipts(await db(), { ...ports(), clock: at(2 * H + 6 * 60_000) })).removed).toBeGreaterThanOrEqual(1);
    replacePorts();
    // draft.deleted
    expect((await approved(u, "delete_draft", { type: "post", id: d2.id })).status).toBe(200);
    // connection.expiring (no refresh token, 3 days left) and connection.needs_reconnect (refused refresh)
    const d = await db();
    const now = Math.floor(Date.now() / 1000);
    await d.insert(authAccounts).values([
      { userId: u.id, type: "oauth", provider: "linkedin", providerAccountId: randomUUID(), access_token: "at-li", expires_at: now + 3 * 86400 },
      {
        userId: u.id,
        type: "oauth",
        provider: "twitter",
        providerAccountId: randomUUID(),
        access_token: "at-x",
        refresh_token: "rt-x",
        status: "needs_reconnect",
      },
    ]);
    expect(await announceConnections(d, new Date())).toBe(2);
    expect(await announceConnections(d, new Date())).toBe(0); // each state once

    await deliver();
    // On a loaded machine the pass can end before the last of them; the next passes send the
    // rest (an hour on: retries due too), as the scheduler's next ticks would.
    const received = () => new Set(payloads(all, h.secret).map((p) => p.type));
    for (let i = 0; i < 3 && !SUBSCRIBABLE.every((t) => received().has(t)); i++) await deliver(H);
    const got = payloads(all, h.secret);
    const types = got.map((p) => p.type);
    for (const t of SUBSCRIBABLE) expect(types, t).toContain(t);
    for (const p of got) {
      const parsed = envelopeSchema(p.type as EventType).safeParse(p);
      expect(parsed.success, `${p.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    const one = (t: string) => got.find((p) => p.type === t)!.data;
    expect(one("post.published")).toMatchObject({ type: "post", id: d1.id, platform: "pronet", url: expect.stringContaining("/sandbox/pronet/") });
    expect(one("post.failed")).toMatchObject({ id: d2.id, reason: expect.stringMatching(/^missed/) });
    expect(one("post.unknown")).toMatchObject({ id: d3.id, reason: expect.stringContaining("no answer") });
    expect(one("approval.requested")).toMatchObject({ url: expect.stringMatching(/^http:\/\/localhost:3000\/confirm\//), operation: "schedule_content" });
    expect(one("approval.decided")).toMatchObject({ decision: "approved" });
    expect(one("draft.created")).toMatchObject({ id: d1.id, actor: { kind: "app", app_name: "Command line" } });
    expect(one("connection.expiring")).toMatchObject({ platform: "pronet" });
    expect(one("connection.needs_reconnect")).toMatchObject({ platform: "micro", reason: "revoked" });
    // Events of one draft arrive in the order they happened.
    const ofD1 = got.filter((p) => p.data.id === d1.id).map((p) => p.type);
    expect(ofD1).toEqual(["draft.created", "draft.updated", "draft.scheduled", "draft.unscheduled", "draft.scheduled", "post.published", "post.removed"]);
    expect(one("post.removed")).toMatchObject({
      id: d1.id,
      url: expect.stringContaining("/sandbox/pronet/"),
      reason: expect.stringMatching(/^The network no longer/),
    });
    // Ids and facts only: no tokens or secrets anywhere in what was sent.
    for (const r of rx.on(all)) {
      expect(r.body).not.toMatch(/whsec_|cto_|at-li|rt-x|at-x/);
      expect(r.headers["content-type"]).toBe("application/json");
    }
  });

  it("writes nothing when the change rolls back, and only to subscribed, active endpoints", async () => {
    const u = await makeUser({ publishing: true });
    const only = await hook(u, "/subscribed", ["draft.scheduled"]);
    const paused = await hook(u, "/paused-one");
    await call("manage_webhooks", { action: "update", webhook_id: paused.id, paused: true }, { token: u.token });
    const d1 = await draft(u);
    // Refused for want of an approval: the transaction that would have scheduled rolls back.
    const refused = await call("schedule_content", { type: "post", id: d1.id, scheduled_for: new Date(Date.now() + H).toISOString() }, { token: u.token });
    expectError(refused, 403, "confirmation_required");
    const rows = await (
      await db()
    )
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, [only.id, paused.id]));
    expect(rows).toEqual([]);
  });

  it("lists the documented event set in OpenAPI's webhooks section", () => {
    const doc = openApiDocument() as unknown as { webhooks: Record<string, unknown> };
    expect(Object.keys(doc.webhooks).sort()).toEqual(Object.keys(EVENT_DATA).sort());
  });
});

describe("delivery", () => {
  it("retries a failing receiver with backoff: one event id, delivered once, every attempt logged", async () => {
    const u = await makeUser();
    const h = await hook(u, "/flaky", ["draft.created"]);
    rx.answer("/flaky", 500, 503, 500);
    await draft(u);
    let t = 0;
    for (let i = 0; i < 6; i++, t += 10 * 60_000) await deliver(t);
    const got = rx.on("/flaky");
    expect(got.map((r) => r.status)).toEqual([500, 503, 500, 204]);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    for (const r of got) rx.verify(r, h.secret);
    const [log] = await deliveryLog(await db(), u.id, h.id);
    expect(log).toMatchObject({ status: "delivered", attempts: 4, lastResponseCode: 204, eventType: "draft.created" });
    const attempts = await (await db()).select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, h.id));
    expect(attempts.map((a) => a.responseCode).sort()).toEqual([204, 500, 500, 503]);
    const [ep] = await (await db()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, h.id));
    expect(ep.lastDeliveryAt).not.toBeNull();
    expect(ep.failingSince).toBeNull();
  });

  it("keeps a draft's events in order: a later one waits while an earlier one is retried", async () => {
    const u = await makeUser();
    await hook(u, "/order", ["draft.created", "draft.updated"]);
    rx.answer("/order", 500);
    const d1 = await draft(u);
    await call("update_draft", { type: "post", id: d1.id, body: "Changed" }, { token: u.token });
    await deliver();
    expect(rx.on("/order").map((r) => JSON.parse(r.body).type)).toEqual(["draft.created"]);
    await deliver(10 * 60_000);
    await deliver(10 * 60_000);
    expect(rx.on("/order").map((r) => [JSON.parse(r.body).type, r.status])).toEqual([
      ["draft.created", 500],
      ["draft.created", 204],
      ["draft.updated", 204],
    ]);
  });

  it("signs with both secrets during the 24-hour overlap after a rotation, then only with the new one", async () => {
    const u = await makeUser();
    const h = await hook(u, "/rotate", ["draft.created"]);
    const rot = expectOk(await call("manage_webhooks", { action: "rotate_secret", webhook_id: h.id }, { token: u.token }), manageWebhooksOp.output);
    await draft(u);
    await deliver();
    const [during] = rx.on("/rotate");
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(rx.verify(during, h.secret).type).toBe("draft.created");
    expect(rx.verify(during, rot.secret).type).toBe("draft.created");
    await draft(u);
    await deliver(25 * H);
    const after = rx.on("/rotate")[1];
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(rx.verify(after, rot.secret).type).toBe("draft.created");
    expect(() => rx.verify(after, h.secret)).toThrow();
  });

  it("loses nothing when a deliverer dies: the event is committed with the change, and a fresh deliverer sends it once its lease runs out", async () => {
    const u = await makeUser();
    const h = await hook(u, "/crash", ["draft.created"]);
    const d1 = await draft(u);
    const d = await db();
    const [ev] = await d
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.userId, u.id), eq(webhookEvents.subject, `post:${d1.id}`)));
    expect(ev.type).toBe("draft.created");
    // A deliverer claims it and dies before sending (the kill -9 case is in tests/e2e/webhooks-crash.test.ts).
    const claimed = await claim(d, new Date(), 100);
    expect(claimed.map((c) => c.endpoint_id)).toContain(h.id);
    await deliver();
    expect(rx.on("/crash")).toHaveLength(0);
    await deliver(61_000);
    expect(rx.on("/crash")).toHaveLength(1);
    expect(rx.on("/crash")[0].headers["webhook-id"]).toBe(ev.id);
  });

  it("pauses an endpoint that failed for 3 days and gives up its deliveries", async () => {
    const u = await makeUser();
    const h = await hook(u, "/down", ["draft.created"]);
    rx.always("/down", 500);
    await draft(u);
    for (let t = 0; t <= 80 * H; t += 6.5 * H) await deliver(t);
    const list = expectOk(await call("list_webhooks", {}, { token: u.token }), listWebhooksOp.output);
    expect(list.webhooks[0].status).toBe("paused");
    const [ep] = await (await db()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, h.id));
    expect(ep.pausedReason).toMatch(/failed for 3 days/);
    const [log] = await deliveryLog(await db(), u.id, h.id);
    expect(log.status).toBe("failed");
    // The owner is told by e-mail (the mail port), once.
    const mails: Mail[] = [];
    const mail = { configured: () => true, send: async (m: Mail) => void mails.push(m) };
    await notifyOwners(await db(), replacedPorts({ mail }), new Date());
    await notifyOwners(await db(), replacedPorts({ mail }), new Date());
    const mine = mails.filter((m) => m.to === u.email && /^Webhooks to 127\.0\.0\.1:\d+ are paused$/.test(m.subject));
    expect(mine).toHaveLength(1);
    expect(mine[0].text).toContain("/settings/webhooks");
    // Nothing more is sent to a paused endpoint.
    const before = rx.on("/down").length;
    await draft(u);
    await deliver(81 * H);
    expect(rx.on("/down").length).toBe(before);
  });

  it("shares senders fairly: at most one delivery of an endpoint and two of a user in flight at once", async () => {
    const u = await makeUser();
    const hooks: { id: string }[] = [];
    for (let i = 0; i < 3; i++) hooks.push(await hook(u, `/fair-${i}`, ["draft.created"]));
    for (let i = 0; i < 7; i++) await draft(u);
    const d = await db();
    const mine = (claimed: { endpoint_id: string }[]) => claimed.map((c) => c.endpoint_id).filter((id) => hooks.some((h) => h.id === id));
    const first = mine(await claim(d, new Date(), 50));
    expect(first).toHaveLength(2);
    expect(new Set(first).size).toBe(2);
    // While those two are leased (in flight), nothing more of this user's is.
    expect(mine(await claim(d, new Date(), 50))).toEqual([]);
    // The rest go out in the same pass, each as a sender comes free (the claimed ones once their lease ends).
    const sent: string[] = [];
    replacePorts({ webhooks: { send: async (r) => (sent.push(r.url), { status: 200, error: null }) } });
    await deliver(31_000);
    for (let i = 0; i < 3; i++) expect(sent.filter((url) => url.endsWith(`/fair-${i}`))).toHaveLength(7);
  });

  it("leases no more than it is asked for, however many deliveries are due", async () => {
    const mine = new Set<string>();
    for (let u = 0; u < 10; u++) {
      const user = await makeUser();
      for (let i = 0; i < 2; i++) mine.add((await hook(user, `/limit-${u}-${i}`, ["draft.created"])).id);
      await draft(user);
    }
    const d = await db();
    const rounds: number[] = [];
    let ours = 0;
    for (let got = await claim(d, new Date(), 7); got.length; got = await claim(d, new Date(), 7)) {
      rounds.push(got.length);
      ours += got.filter((c) => mine.has(c.endpoint_id)).length;
    }
    expect(Math.max(...rounds)).toBe(7);
    expect(ours).toBe(20);
  });

  it("never starts a send its lease may not cover, so a second deliverer cannot send the same event again", async () => {
    // Receivers that each take the whole timeout: with 4 deliveries claimed at once and one
    // sender, the last ones would start after their claim ran out, when another deliverer
    // (another process) may already have claimed and sent them.
    const u = await makeUser();
    await hook(u, "/slow-round", ["draft.created"]);
    for (let i = 0; i < 4; i++) await draft(u);
    const d = await db();
    const T = ports().config().WEBHOOK_TIMEOUT_MS;
    let now = Date.now();
    const clock = () => new Date(now);
    const sent: string[] = [];
    let other: Promise<unknown> | undefined;
    const slow = replacedPorts({
      webhooks: {
        send: async (r) => {
          if (!r.url.endsWith("/slow-round")) return { status: 204, error: null };
          sent.push(r.headers["webhook-id"]);
          now += T; // the receiver took the whole timeout
          // Once the first claim has run out, another deliverer makes its pass.
          if (now - start >= 3 * T && !other) other = deliverDue(d, { ports: slow, clock, concurrency: 1 });
          return { status: 204, error: null };
        },
      },
    });
    const start = now;
    await deliverDue(d, { ports: slow, clock, concurrency: 1 });
    await other;
    await deliverDue(d, { ports: slow, clock, concurrency: 1 }); // what was left is sent now
    expect(sent).toHaveLength(4);
    expect(new Set(sent).size).toBe(4);
  });

  it("gives one user's endpoints at most two places of a claim, so other users' events go out beside theirs", async () => {
    const busy = await makeUser();
    for (let i = 0; i < 4; i++) await hook(busy, `/busy-${i}`, ["draft.created"]);
    for (let i = 0; i < 5; i++) await draft(busy); // 20 deliveries due
    const calm = await makeUser();
    const theirs = await hook(calm, "/calm", ["draft.created"]);
    await draft(calm);
    const round = await claim(await db(), new Date(), 50);
    const hooksOfBusy = await (await db()).select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, busy.id));
    const ofBusy = round.filter((c) => hooksOfBusy.some((h) => h.id === c.endpoint_id));
    expect(ofBusy).toHaveLength(2);
    expect(round.some((c) => c.endpoint_id === theirs.id)).toBe(true);
  });

  it("lets no user hold more than two senders: another user's deliveries go out while theirs wait on slow receivers", async () => {
    const slow = await makeUser();
    for (let i = 0; i < 4; i++) await hook(slow, `/slow-user-${i}`, ["draft.created"]);
    for (let i = 0; i < 3; i++) await draft(slow); // 12 deliveries, due before the other user's
    const quick = await makeUser();
    await hook(quick, "/quick-user", ["draft.created"]);
    await draft(quick);
    const answeredSlow = () => rx.received.filter((r) => r.path.startsWith("/slow-user-"));
    rx.hold("/slow-user-", 8000); // a receiver that takes its time (until released)
    const pass = deliver();
    try {
      await vi.waitFor(() => expect(rx.on("/quick-user")).toHaveLength(1), { timeout: 20_000, interval: 20 });
      expect(answeredSlow()).toHaveLength(0);
      // What comes due while the slow ones are still being sent goes out too, in the same pass.
      await draft(quick);
      await vi.waitFor(() => expect(rx.on("/quick-user")).toHaveLength(2), { timeout: 20_000, interval: 20 });
      expect(answeredSlow()).toHaveLength(0);
      expect(rx.held()).toHaveLength(2);
    } finally {
      rx.release();
      await pass;
    }
    // On a loaded machine the pass can end before the last of them; the next passes send the
    // rest (an hour on: retries due too), as the scheduler's next ticks would. None twice.
    for (let i = 0; i < 3 && answeredSlow().filter((r) => r.status === 204).length < 12; i++) await deliver(H);
    expect(answeredSlow().filter((r) => r.status === 204)).toHaveLength(12);
  });

  it("does not follow redirects", async () => {
    const u = await makeUser();
    const h = await hook(u, "/redirect", ["draft.created"]);
    rx.answer("/redirect", [302, "/redirect-target"]);
    await draft(u);
    await deliver();
    expect(rx.on("/redirect-target")).toHaveLength(0);
    const [log] = await deliveryLog(await db(), u.id, h.id);
    expect(log).toMatchObject({ status: "pending", lastResponseCode: 302, lastError: expect.stringContaining("redirects are not followed") });
  });

  it("sends webhook.test to the tested endpoint only", async () => {
    const u = await makeUser();
    const a = await hook(u, "/test-a", ["post.published"]);
    await hook(u, "/test-b", ["post.published"]);
    expectOk(await call("manage_webhooks", { action: "test", webhook_id: a.id }, { token: u.token }), manageWebhooksOp.output);
    await deliver();
    expect(payloads("/test-a", a.secret).map((p) => p.type)).toEqual(["webhook.test"]);
    expect(rx.on("/test-b")).toHaveLength(0);
  });
});

describe("sender (SSRF)", () => {
  const request = (url: string) => ({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 2000 });
  const publicOrigin = () => "https://contentio.example";

  it("refuses a name that resolves to loopback or a private address when the service is public, and never connects", async () => {
    const port = new URL(rx.url).port;
    const before = rx.received.length;
    const toLoopback = httpSender({ origin: publicOrigin, resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
    expect(await toLoopback(request(`https://hooks.example.test:${port}/ssrf`))).toEqual({ status: null, error: expect.stringMatching(/^refused/) });
    const mixed = httpSender({
      origin: publicOrigin,
      resolve: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ],
    });
    expect((await mixed(request("https://hooks.example.test/ssrf"))).error).toMatch(/^refused/);
    const metadata = httpSender({ origin: publicOrigin, resolve: async () => [{ address: "169.254.169.254", family: 4 }] });
    expect((await metadata(request("https://metadata.example.test/"))).error).toMatch(/^refused/);
    const mapped = httpSender({ origin: publicOrigin, resolve: async () => [{ address: "::ffff:127.0.0.1", family: 6 }] });
    expect((await mapped(request("https://hooks.example.test/"))).error).toMatch(/^refused/);
    // `localhost` through the real resolver, and loopback literals.
    const real = httpSender({ origin: publicOrigin });
    for (const url of [`https://localhost:${port}/ssrf`, `http://127.0.0.1:${port}/ssrf`, `https://[::1]:${port}/ssrf`]) {
      expect((await real(request(url))).error, url).toMatch(/^refused/);
    }
    expect(rx.received.length).toBe(before);
  });

  it("connects to the address it checked: the name is resolved once, and the socket goes there", async () => {
    const port = new URL(rx.url).port;
    let lookups = 0;
    const send = httpSender({
      origin: () => "http://localhost:3000",
      resolve: async () => {
        lookups++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    const res = await send(request(`http://localhost:${port}/pinned`));
    expect(res).toEqual({ status: 204, error: null });
    expect(lookups).toBe(1);
    expect(rx.on("/pinned")).toHaveLength(1);
  });

  it("counts the name's resolution in the timeout", async () => {
    const stuck = httpSender({ origin: publicOrigin, resolve: () => new Promise(() => {}) });
    const res = await stuck({ ...request("https://slow-dns.example.test/"), timeoutMs: 300 });
    expect(res).toEqual({ status: null, error: "could not resolve slow-dns.example.test within 0.3 s" });
  });

  it("resolves names without Node's shared worker threads, so a slow name server cannot hold them", async () => {
    const dnsServer = await fakeDns("93.184.215.14");
    try {
      // Every worker thread busy (password hashing, image work and getaddrinfo share them).
      const started = Date.now();
      const busy = Array.from({ length: 4 }, () => promisify(pbkdf2)("pw", "salt", 400_000, 32, "sha256").then(() => Date.now()));
      const resolved = dnsResolve([`127.0.0.1:${dnsServer.port}`])("hooks.example.test").then((a) => ({ a, at: Date.now() }));
      const looked = dnsLookup("localhost").then(() => Date.now()); // getaddrinfo: waits for a thread
      const [{ a, at }, done, lookedAt] = await Promise.all([resolved, Promise.all(busy), looked]);
      expect(a).toEqual([{ address: "93.184.215.14", family: 4 }]);
      expect(at).toBeLessThan(Math.min(...done)); // answered while every thread was busy
      expect(lookedAt).toBeGreaterThanOrEqual(Math.min(...done)); // the setup did hold them
      expect(Math.min(...done)).toBeGreaterThan(started);
    } finally {
      dnsServer.close();
    }
  });

  it("gives up on a receiver that does not answer within the timeout", async () => {
    const net = await import("node:net");
    const sockets: import("node:net").Socket[] = [];
    const silent = net.createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const { port } = silent.address() as { port: number };
    const started = Date.now();
    const res = await httpSender({ origin: () => "http://localhost:3000" })({ ...request(`http://127.0.0.1:${port}/`), timeoutMs: 300 });
    expect(res).toEqual({ status: null, error: expect.stringContaining("no answer") });
    expect(Date.now() - started).toBeLessThan(2000);
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });
});

describe("with Inngest as the engine", () => {
  it("the deliver-webhooks function sends what is due", async () => {
    const { InngestTestEngine } = await import("@inngest/test");
    const { deliverWebhooks } = await import("@/lib/adapters/inngest/functions");
    const u = await makeUser();
    const h = await hook(u, "/inngest", ["draft.created"]);
    await draft(u);
    await new InngestTestEngine({ function: deliverWebhooks }).execute();
    expect(payloads("/inngest", h.secret).map((p) => p.type)).toEqual(["draft.created"]);
  });
});

describe("retention", () => {
  it("forgets settled events after 30 days, never one still waiting", async () => {
    const u = await makeUser();
    const h = await hook(u, "/old", ["draft.created"]);
    await draft(u); // pending: no deliverer has run
    const d = await db();
    const before = await deliveryLog(d, u.id, h.id);
    expect(before).toHaveLength(1);
    await pruneOld(d, new Date(Date.now() + 31 * 86400_000));
    expect(await deliveryLog(d, u.id, h.id)).toHaveLength(1);
    await deliver();
    expect((await deliveryLog(d, u.id, h.id))[0].status).toBe("delivered");
    await pruneOld(d, new Date(Date.now() + 31 * 86400_000));
    expect(await deliveryLog(d, u.id, h.id)).toHaveLength(0);
  });
});

describe("address rules", () => {
  it("refuses private, link-local, metadata, reserved and mapped addresses, allows public ones", () => {
    for (const ip of [
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "127.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00:ec2::254",
      "fc00::1",
      "::ffff:10.0.0.1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::a00:1",
      "64:ff9b:1::a00:1",
      "::7f00:1", // ::127.0.0.1, IPv4-compatible
      "::a00:1",
      "::ffff:0:a00:1", // IPv4-translated 10.0.0.1
      "ff02::1",
      "not-an-ip",
    ])
      expect(addressAllowed(ip, false), ip).toBe(false);
    for (const ip of ["93.184.215.14", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(addressAllowed(ip, false), ip).toBe(true);
    expect(addressAllowed("127.0.0.1", true)).toBe(true);
    expect(addressAllowed("10.0.0.1", true)).toBe(false);
  });
});
