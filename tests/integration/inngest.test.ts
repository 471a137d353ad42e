import { InngestTestEngine } from "@inngest/test";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { EVENTS } from "@/lib/adapters/inngest/events";
import { collectMetrics, publishScheduled, sweepOverdue } from "@/lib/adapters/inngest/functions";
import { SANDBOX_NO_METRICS } from "@/lib/adapters/platforms/sandbox";
import { postDrafts, postMetrics } from "@/drizzle/schema";
import { GET, PUT } from "@/app/api/inngest/route";
import { config } from "@/lib/core/config";
import { call, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { reconfigure, withConfig } from "../helpers/env";
import { startFakeInngest, type SentEvent } from "../helpers/fake-inngest";
import { serve } from "../helpers/http-server";
import { approved, draft, inSeconds, row, sandboxCount } from "../helpers/publishing";

withDatabase();

let inngest: Awaited<ReturnType<typeof startFakeInngest>>;
let sent: SentEvent[];
withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1", INNGEST_DEV: undefined });

beforeAll(async () => {
  inngest = await startFakeInngest();
  sent = inngest.sent;
});
afterAll(() => inngest.close());

/** Makes a scheduled draft due now (the lead time would otherwise need a real wait). */
async function dueNow(id: string) {
  const at = new Date(Date.now() - 1000);
  await (await db()).update(postDrafts).set({ scheduledFor: at }).where(eq(postDrafts.id, id));
  return at.toISOString();
}

describe("Inngest functions", () => {
  it("refuses an event whose data does not match its schema, before touching any draft", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    for (const data of [
      { type: "post", id: d.id, userId: u.id },
      { type: "video", id: d.id, userId: u.id, scheduled_for: new Date().toISOString() },
      { type: "post", id: "x", userId: u.id, scheduled_for: "soon" },
    ]) {
      const run = await new InngestTestEngine({
        function: publishScheduled,
        events: [{ name: EVENTS.scheduled, data }],
        steps: [{ id: "wait-until-due", handler: () => null }],
      }).execute();
      expect(run.error, JSON.stringify(data)).toBeTruthy();
    }
    expect(await sandboxCount(d.id)).toBe(0);
    expect((await row("post", d.id)).status).toBe("draft");
  });

  it("sleeps until the time, then publishes once; a redelivered event posts nothing more", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(60).toISOString() })).status).toBe(200);
    const at = await dueNow(d.id);
    const events: [{ name: string; data: Record<string, unknown> }] = [
      { name: EVENTS.scheduled, data: { type: "post", id: d.id, userId: u.id, scheduled_for: at } },
    ];
    // A fresh engine per delivery: one engine memoises step results like a single run.
    const engine = () => new InngestTestEngine({ function: publishScheduled, events, steps: [{ id: "wait-until-due", handler: () => null }] });
    const first = await engine().execute();
    expect(first.ctx.step.sleepUntil).toHaveBeenCalledWith("wait-until-due", at);
    expect(first.result).toMatchObject({ status: "published", platform: "pronet" });
    const again = await engine().execute();
    expect(again.result).toMatchObject({ status: "not_due" });
    expect(await sandboxCount(d.id)).toBe(1);
  });

  it("a run for a time the draft no longer has publishes nothing", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    const old = inSeconds(60).toISOString();
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: old })).status).toBe(200);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(3600).toISOString() })).status).toBe(200);
    const engine = new InngestTestEngine({
      function: publishScheduled,
      events: [{ name: EVENTS.scheduled, data: { type: "post", id: d.id, userId: u.id, scheduled_for: old } }],
      steps: [{ id: "wait-until-due", handler: () => null }],
    });
    expect((await engine.execute()).result).toMatchObject({ status: "not_due" });
    expect(await sandboxCount(d.id)).toBe(0);
    expect((await row("post", d.id)).status).toBe("scheduled");
  });

  it("the cron sweep publishes overdue drafts", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(60).toISOString() })).status).toBe(200);
    await dueNow(d.id);
    await new InngestTestEngine({ function: sweepOverdue }).execute();
    expect(await sandboxCount(d.id)).toBe(1);
  });

  it("the metrics cron reads the engagement of posts due a read: in the sandbox, none, and it says why", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    expect((await approved(u, "publish_now", { type: "post", id: d.id })).status).toBe(200);
    await (
      await db()
    )
      .update(postDrafts)
      .set({ publishedAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(postDrafts.id, d.id));
    await new InngestTestEngine({ function: collectMetrics }).execute();
    const reads = await (await db()).select().from(postMetrics).where(eq(postMetrics.draftId, d.id));
    expect(reads).toMatchObject([{ window: "1h", impressions: null, note: SANDBOX_NO_METRICS }]);
  });
});

describe("Inngest events from the scheduling operations", () => {
  it("are not sent, and the serve route is not mounted, when Inngest is not configured", async () => {
    const u = await makeUser({ publishing: true });
    const d = await draft(u);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: inSeconds(60).toISOString() })).status).toBe(200);
    expect(sent).toEqual([]);
    const res = await GET(new Request("http://localhost/api/inngest"), {});
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  });

  it("schedule, reschedule, unschedule and delete send events with deterministic ids", async () => {
    const restore = reconfigure({ INNGEST_DEV: inngest.url });
    try {
      const u = await makeUser({ publishing: true });
      const d = await draft(u);
      const a = inSeconds(60).toISOString();
      const b = inSeconds(120).toISOString();
      sent.length = 0;
      await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: a });
      await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: b });
      await call("unschedule_content", { type: "post", id: d.id }, { token: u.token });
      await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: a });
      await approved(u, "delete_draft", { type: "post", id: d.id });
      const data = (at?: string) => ({ type: "post", id: d.id, userId: u.id, ...(at && { scheduled_for: at }) });
      const id = (kind: string, at: string) => expect.stringMatching(new RegExp(`^${kind}:post:${d.id}:${at.replace(/\./g, "\\.")}:\\d+$`));
      expect(sent.map(({ name, id, data }) => ({ name, id, data }))).toEqual([
        { name: EVENTS.scheduled, id: id("schedule", a), data: data(a) },
        { name: EVENTS.unscheduled, id: id("unschedule", a), data: data(a) },
        { name: EVENTS.scheduled, id: id("schedule", b), data: data(b) },
        { name: EVENTS.unscheduled, id: id("unschedule", b), data: data(b) },
        { name: EVENTS.scheduled, id: id("schedule", a), data: data(a) },
        { name: EVENTS.deleted, id: `delete:post:${d.id}`, data: data() },
      ]);
      // Scheduling the same time again is a new event, not a repeat Inngest would drop.
      expect(sent[4].id).not.toBe(sent[0].id);
      expect((await GET(new Request("http://localhost/api/inngest"), {})).status).not.toBe(404);
    } finally {
      restore();
    }
  });

  it("registers the service's own address with Inngest Cloud, whatever Host a sync request names", async () => {
    // Anyone may send the sync (an unsigned PUT, Inngest's documented way to sync after a
    // deploy): it must never point Inngest's calls, and so every scheduled post, elsewhere.
    const registered: { url?: string }[] = [];
    const api = await serve(async (req) => {
      if (new URL(req.url).pathname !== "/fn/register") return new Response(null, { status: 404 });
      registered.push(await req.json());
      return Response.json({ ok: true, modified: true });
    });
    const restore = reconfigure({
      INNGEST_DEV: undefined,
      INNGEST_EVENT_KEY: "event-key",
      INNGEST_SIGNING_KEY: "signkey-prod-0123456789abcdef0123456789abcdef",
      INNGEST_BASE_URL: api.url,
    });
    try {
      for (const host of ["evil.example", "https://evil.example"]) {
        await PUT(new Request(`${config().origin}/api/inngest`, { method: "PUT", headers: { host } }), {});
      }
      expect(registered.map((r) => r.url)).toEqual([`${config().origin}/api/inngest`, `${config().origin}/api/inngest`]);
    } finally {
      restore();
      await api.close();
    }
  });

  it("refuses to start in Inngest's dev mode, which accepts unsigned calls, unless the service's address is loopback", async () => {
    for (const APP_URL of ["https://contentio.example", "http://10.0.0.5:3000", "http://[2001:db8::1]:3000"]) {
      // Even with a signing key: dev mode does not check signatures.
      const restore = reconfigure({ INNGEST_DEV: "1", APP_URL, INNGEST_SIGNING_KEY: "signkey-prod-0123456789abcdef0123456789abcdef" });
      try {
        expect(() => config(), APP_URL).toThrow(/Invalid configuration: INNGEST_DEV: .*unsigned.*APP_URL/);
      } finally {
        restore();
      }
    }
    for (const APP_URL of ["http://localhost:3000", "http://127.0.0.2:3000", "http://[::1]:3000", undefined]) {
      const restore = reconfigure({ INNGEST_DEV: inngest.url, APP_URL });
      try {
        expect(config().inngest).toBe(true);
      } finally {
        restore();
      }
    }
  });

  it("refuses to start with an event key but no signing key, which would publish nothing", async () => {
    const restore = reconfigure({ INNGEST_DEV: undefined, INNGEST_EVENT_KEY: "event-key", INNGEST_SIGNING_KEY: undefined });
    try {
      expect(() => config()).toThrow(/INNGEST_SIGNING_KEY: is needed with INNGEST_EVENT_KEY/);
    } finally {
      restore();
    }
  });
});
