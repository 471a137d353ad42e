import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { runDue } from "@/lib/adapters/scheduler";
import { announceConnections } from "@/lib/domain/webhooks/connection-events";
import { deliverDue } from "@/lib/adapters/webhooks/deliver";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { approved, draft, row } from "../helpers/publishing";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

// Publish outcomes through the real LinkedIn and X adapters against the fake platforms, each
// reported to a receiver on loopback that verifies every delivery with standardwebhooks.

withDatabase();
const platforms = withFakePlatforms();
const { connect } = platforms;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe("publish outcomes from the real adapters", () => {
  it("published (scheduler, X), unknown (LinkedIn timeout), failed (duplicate) and needs_reconnect (refused refresh)", async () => {
    const u = await makeUser({ publishing: true });
    await connect(u, "linkedin");
    await connect(u, "twitter");
    const hook = await call(
      "manage_webhooks",
      { action: "create", url: `${rx.url}/platforms`, events: ["post.published", "post.failed", "post.unknown", "connection.needs_reconnect"] },
      { token: u.token },
    );
    const secret = hook.body.secret as string;

    const tweet = await draft(u, "tweet", `Tweet ${randomUUID()}`);
    const when = new Date(Date.now() + 1800_000); // before the connection (1 hour, no refresh token) expires
    expect((await approved(u, "schedule_content", { type: "tweet", id: tweet.id, scheduled_for: when.toISOString() })).status).toBe(200);
    await runDue(await db(), { clock: () => new Date(when.getTime() + 1000) });

    const slow = await draft(u, "post", `Slow ${randomUUID()}`);
    platforms.fake.misbehave("linkedin", "timeout");
    expect((await approved(u, "publish_now", { type: "post", id: slow.id })).status).toBe(422);
    const dup = await draft(u, "post", `Dup ${randomUUID()}`);
    platforms.fake.misbehave("linkedin", "duplicate");
    expect((await approved(u, "publish_now", { type: "post", id: dup.id })).status).toBe(422);
    platforms.fake.calm();

    const other = await makeUser({ publishing: true });
    await connect(other, "linkedin", { valid: false, refresh: "not-the-current-refresh-token" });
    const h2 = await call(
      "manage_webhooks",
      { action: "create", url: `${rx.url}/revoked`, events: ["post.failed", "connection.needs_reconnect"] },
      { token: other.token },
    );
    const revoked = await draft(other, "post", `Revoked ${randomUUID()}`);
    expect((await approved(other, "publish_now", { type: "post", id: revoked.id })).status).toBe(422);
    await announceConnections(await db(), new Date());

    await deliverDue(await db());
    const got = rx.on("/platforms").map((r) => rx.verify(r, secret));
    expect(got.map((p) => [p.type, p.data.id])).toEqual(
      expect.arrayContaining([
        ["post.published", tweet.id],
        ["post.unknown", slow.id],
        ["post.failed", dup.id],
      ]),
    );
    expect(got.find((p) => p.type === "post.published")!.data).toMatchObject({
      platform: "micro",
      url: expect.stringMatching(/^https:\/\/x\.com\/writer\/status\//),
    });
    expect(got.find((p) => p.type === "post.failed")!.data.reason).toMatch(/duplicate/i);
    const theirs = rx.on("/revoked").map((r) => rx.verify(r, h2.body.secret));
    expect(theirs.map((p) => p.type).sort()).toEqual(["connection.needs_reconnect", "post.failed"]);
    expect(theirs.find((p) => p.type === "connection.needs_reconnect")!.data).toEqual({ platform: "pronet", reason: "revoked" });
    // One user's events never reach another's endpoint.
    expect(got.some((p) => p.data.id === revoked.id)).toBe(false);
    for (const r of [...rx.on("/platforms"), ...rx.on("/revoked")]) expect(r.body).not.toMatch(/tok-|refresh_token|whsec_/);
  });

  it("half an emoji from a platform (cut into a reason, or in an id) spoils no outcome of the pass", async () => {
    // The reasons and ids go into webhook payloads and bulk statements as JSON, where PostgreSQL
    // refuses a lone surrogate: one such outcome used to undo every outcome written with it.
    const a = await makeUser({ publishing: true });
    await connect(a, "twitter");
    const b = await makeUser({ publishing: true });
    await connect(b, "linkedin");
    const c = await makeUser({ publishing: true });
    await connect(c, "twitter");
    for (const u of [a, b, c]) {
      await call("manage_webhooks", { action: "create", url: `${rx.url}/emoji`, events: ["post.published", "post.failed"] }, { token: u.token });
    }
    const when = new Date(Date.now() + 1800_000);
    const refused = await draft(a, "tweet", `Refused ${randomUUID()}`);
    const fine = await draft(b, "post", `Fine ${randomUUID()}`);
    const odd = await draft(c, "tweet", `Odd id ${randomUUID()}`);
    for (const [u, type, id] of [
      [a, "tweet", refused.id],
      [b, "post", fine.id],
      [c, "tweet", odd.id],
    ] as const) {
      expect((await approved(u, "schedule_content", { type, id, scheduled_for: when.toISOString() })).status).toBe(200);
    }
    // X's two calls of the pass: whichever comes first is refused, the other created with an odd id.
    platforms.fake.misbehave("x", "emoji400", "oddid");
    await runDue(await db(), { clock: () => new Date(when.getTime() + 1000) });

    const [ra, rb, rc] = await Promise.all([row("tweet", refused.id), row("post", fine.id), row("tweet", odd.id)]);
    expect(rb.status).toBe("published");
    // The refused one says why (cut before the emoji); the one with an id that is no tweet id
    // (it cannot be linked to or replied to) is left for the owner to check.
    const [failed, unsure] = ra.status === "failed" ? [ra, rc] : [rc, ra];
    expect([failed.status, unsure.status]).toEqual(["failed", "unknown"]);
    expect(failed.failureReason).toMatch(/^X refused the tweet \(400: \{"detail":"\.+…\)\.$/);
    expect(unsure.failureReason).toContain("no usable id");
    await deliverDue(await db());
    expect(
      rx
        .on("/emoji")
        .map((r) => JSON.parse(r.body).type)
        .sort(),
    ).toEqual(["post.failed", "post.published"]);
  });
});
