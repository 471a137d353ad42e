import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { PublishError, type Platform, type PublishRequest } from "@/lib/domain/networks/platform";
import { defaultPorts, ports, replacePorts, type Events } from "@/lib/adapters/ports";
import { runDue } from "@/lib/adapters/scheduler";
import type { Mail, StoredConnection } from "@/lib/domain/ports";
import { call, expectError, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { approved, draft, inSeconds, row, sandboxCount } from "../helpers/publishing";

// The outside world reaches the domain only through the ports on its context: a test hands
// in fakes (events, a network, a clock) and the real operations use them.
withDatabase();
withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
afterEach(() => replacePorts());

function fakeNetwork() {
  const sent: PublishRequest[] = [];
  const platform: Platform = {
    name: "pronet",
    kind: "sandbox",
    publish: async (req) => {
      sent.push(req);
      return { postId: `fake-${sent.length}`, url: `https://network.test/p/${sent.length}` };
    },
  } as Platform;
  return { sent, platforms: { ...defaultPorts().platforms, open: async () => platform } };
}

describe("ports on the context", () => {
  it("scheduling and deleting announce themselves through the events port", async () => {
    const seen: [string, Record<string, unknown>][] = [];
    const events: Events = {
      scheduled: async (d) => void seen.push(["scheduled", d]),
      unscheduled: async (d) => void seen.push(["unscheduled", d]),
      deleted: async (d) => void seen.push(["deleted", d]),
    };
    replacePorts({ events });
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const at = inSeconds(120);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() })).status).toBe(200);
    expect((await approved(u, "delete_draft", { type: "post", id: d.id })).status).toBe(200);
    expect(seen.map(([k, v]) => [k, v.id])).toEqual([
      ["scheduled", d.id],
      ["deleted", d.id],
    ]);
    expect(seen[0][1]).toMatchObject({ type: "post", userId: u.id, scheduledFor: at, previous: null });
  });

  it("publish_now and the scheduler post through the platforms port, on the clock port's time", async () => {
    const net = fakeNetwork();
    replacePorts({ platforms: net.platforms });
    const u = await makeUser({ publishing: true });
    const now = await draft(u, "post", "Through the port, now");
    const res = await approved(u, "publish_now", { type: "post", id: now.id });
    expect(res.body).toEqual({ platform: "pronet", platform_post_id: "fake-1", url: "https://network.test/p/1" });
    expect(net.sent[0]).toMatchObject({
      userId: u.id,
      draftType: "post",
      draftId: now.id,
      text: "Through the port, now",
      parts: [{ text: "Through the port, now", media: [] }],
      document: null,
      progress: { parts: [], media: {} },
    });
    expect(await sandboxCount(now.id)).toBe(0);

    const later = await draft(u, "post", "Through the port, later");
    const at = inSeconds(120);
    expect((await approved(u, "schedule_content", { type: "post", id: later.id, scheduled_for: at.toISOString() })).status).toBe(200);
    await runDue(await db(), { ports: { ...ports(), clock: () => new Date(at.getTime() - 1000) } });
    expect(net.sent).toHaveLength(1);
    await runDue(await db(), { ports: { ...ports(), clock: () => new Date(at.getTime() + 1000) } });
    expect(net.sent.map((r) => r.text)).toEqual(["Through the port, now", "Through the port, later"]);
    expect((await row("post", later.id)).platformUrl).toBe("https://network.test/p/2");
  });

  it("scheduling, publish_now and the profile ask the platforms port about the connection", async () => {
    // LinkedIn set up for this deployment, X not; a LinkedIn connection that only the fake
    // knows of (no auth_accounts row), valid for a day and unable to renew itself.
    const connection = {
      provider: "linkedin",
      status: "connected",
      handle: "@fake",
      expires_at: Math.floor(Date.now() / 1000) + 86400,
      refresh_token: null,
      scope: "openid profile email w_member_social",
    } as StoredConnection;
    replacePorts({
      platforms: {
        configured: (name) => name === "linkedin",
        connection: async (_db, _userId, name) => (name === "pronet" ? connection : null),
        open: async () => {
          throw new Error("nothing is published in this test");
        },
        signIn: async () => {
          throw new Error("nothing is connected in this test");
        },
        authorize: async () => {
          throw new Error("nothing is connected in this test");
        },
        finishAuthorize: async () => {
          throw new Error("nothing is connected in this test");
        },
        signOut: async () => {},
      },
    });
    const u = await makeUser({ publishing: true });
    expect((await call("get_profile_context", {}, { token: u.token })).body.connected_accounts).toEqual([
      { platform: "pronet", handle: "@fake", connected: true, ready_to_publish: true },
      { platform: "micro", handle: null, connected: false, ready_to_publish: true }, // the sandbox stands in
    ]);
    const d = await draft(u);
    const late = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(2 * 86400).toISOString() }, { token: u.token });
    expectError(late, 422, "action_failed");
    expect(late.body.error.message).toMatch(/^The LinkedIn connection can publish only until/);
    const soon = await call("schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(3600).toISOString() }, { token: u.token });
    expectError(soon, 403, "confirmation_required");
    // The port says the connection needs renewing: refused before any approval is asked for.
    connection.status = "needs_reconnect";
    const now = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    expectError(now, 422, "action_failed");
    expect(now.body.error.message).toBe("The LinkedIn connection needs renewing. The owner can reconnect it in Settings > Connections.");
    expect((await call("get_profile_context", {}, { token: u.token })).body.connected_accounts[0]).toMatchObject({ connected: false, ready_to_publish: false });
  });

  it("the scheduler's pass tells the owner of a failure through the mail port", async () => {
    const mails: Mail[] = [];
    replacePorts({
      platforms: {
        ...defaultPorts().platforms,
        open: async () => {
          throw new PublishError("failed", "the fake network refused it");
        },
      },
      mail: { configured: () => true, send: async (m) => void mails.push(m) },
    });
    const u = await makeUser({ publishing: true });
    const d = await draft(u, "post", "Refused by the fake network");
    const at = inSeconds(60);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() })).status).toBe(200);
    expect(await runDue(await db(), { clock: () => new Date(at.getTime() + 1000) })).toMatchObject({ failed: 1 });
    expect(mails.filter((m) => m.to === u.email)).toEqual([
      {
        to: u.email,
        subject: "A post failed to publish in the sandbox: Refused by the fake network",
        text: expect.stringContaining("Reason: the fake network refused it"),
      },
    ]);
  });

  it("upload_media has the bytes worked on through the workers port, and decides on its answers", async () => {
    const asked: string[] = [];
    const clean = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    replacePorts({
      workers: {
        image: async (_input, format, limits) => {
          asked.push(`${format} within ${limits.pixels} pixels`);
          return format === "png" ? { kind: "image", data: clean, width: 3, height: 2, frames: 1 } : { kind: "other", format: "tiff" };
        },
        pdfPages: async (_input, limits) => (asked.push(`pdf up to ${limits.max} pages`), { pages: 7 }),
        frames: async () => null,
      },
    });
    const u = await makeUser();
    const upload = (bytes: number[], content_type: string) =>
      call("upload_media", { data: Buffer.from(bytes).toString("base64"), content_type }, { token: u.token });
    const png = await upload([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0], "image/png");
    expect(png.body).toMatchObject({ content_type: "image/png", bytes: clean.length, width: 3, height: 2, pages: null });
    const jpeg = await upload([0xff, 0xd8, 0xff, 0], "image/jpeg");
    expectError(jpeg, 400, "invalid_request");
    expect(JSON.stringify(jpeg.body)).toContain("The bytes are a tiff image, not image/jpeg");
    expect((await upload([...Buffer.from("%PDF-1.7 ")], "application/pdf")).body).toMatchObject({ pages: 7, width: null });
    expect(asked).toEqual(["png within 50000000 pixels", "jpeg within 50000000 pixels", "pdf up to 300 pages"]);
  });

  it("the composition root gives the real ports back", () => {
    replacePorts({ clock: () => new Date(0) });
    expect(ports().clock().getTime()).toBe(0);
    replacePorts();
    expect(Object.keys(ports()).sort()).toEqual(Object.keys(defaultPorts()).sort());
    expect(Math.abs(ports().clock().getTime() - Date.now())).toBeLessThan(5000);
  });
});
