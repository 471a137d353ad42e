import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { getAnalytics } from "@/lib/domain/analytics/analytics";
import type { Ctx } from "@/lib/domain/context";
import { defaultPorts } from "@/lib/adapters/ports";
import { getAnalyticsOp } from "@/lib/operations/analytics/get-analytics";
import { creditEvents, ideas, postDrafts, users } from "@/drizzle/schema";
import { call, expectOk, makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";

withDatabase();

// America/New_York leaves daylight saving on Sunday 2026-11-01 at 06:00 UTC (EDT -4 -> EST -5).
// "Now" is Wednesday 2026-11-04 10:00 local; the week starts Monday 2026-11-02.
const NOW = new Date("2026-11-04T15:00:00Z");
const TZ = "America/New_York";
const t = (s: string) => new Date(s);

async function seed() {
  const u = await makeUser();
  const d = await db();
  await d
    .update(users)
    .set({ timezone: TZ, voiceSummary: "Calm", tone: ["warm"], samplePosts: ["a", "b", "c"], niche: "data" })
    .where(eq(users.id, u.id));
  const [idea] = await d
    .insert(ideas)
    .values({ userId: u.id, title: "idea", createdAt: t("2026-11-04T04:59:00Z") })
    .returning(); // local Nov 3 23:59
  const published = (at: string, extra: Partial<typeof postDrafts.$inferInsert> = {}) => ({
    userId: u.id,
    title: "p",
    body: "p",
    status: "published" as const,
    publishedAt: t(at),
    createdAt: t(at),
    ...extra,
  });
  await d.insert(postDrafts).values([
    published("2026-11-04T14:00:00Z", { pillar: "Craft" }), // local Nov 4 09:00
    published("2026-11-03T04:30:00Z", { pillar: "Craft", scheduledFor: t("2026-11-03T04:30:00Z") }), // local Nov 2 23:30 EST
    published("2026-11-02T04:30:00Z", { scheduledFor: t("2026-11-02T04:30:00Z") }), // local Nov 1 23:30 EST (after the change)
    published("2026-11-01T03:30:00Z", { pillar: "Career" }), // local Oct 31 23:30 EDT
    published("2026-10-30T12:00:00Z"),
    published("2026-10-28T12:00:00Z"),
    { userId: u.id, title: "s", body: "s", status: "scheduled", scheduledFor: t("2026-11-10T12:00:00Z"), createdAt: t("2026-10-20T12:00:00Z") },
    { userId: u.id, title: "d", body: "d", status: "draft", pillar: "Craft", ideaId: idea.id, createdAt: t("2026-10-20T12:00:00Z") },
    {
      userId: u.id,
      title: "m",
      body: "m",
      status: "failed",
      scheduledFor: t("2026-10-21T12:00:00Z"),
      failureReason: "missed",
      createdAt: t("2026-10-20T12:00:00Z"),
    },
  ]);
  const ev = (at: string, credits: number, refunded = false) => ({
    userId: u.id,
    operation: "generate_post",
    credits,
    createdAt: t(at),
    refundedAt: refunded ? t(at) : null,
  });
  await d.insert(creditEvents).values([
    ev("2026-11-02T04:30:00Z", 10), // local Sun Nov 1: last week
    ev("2026-11-03T04:30:00Z", 3), // local Mon Nov 2: this week
    ev("2026-11-04T14:00:00Z", 10), // Nov 4
    ev("2026-11-04T14:30:00Z", 3, true), // refunded: not counted
    ev("2026-10-27T03:00:00Z", 10), // local Mon Oct 26 23:00 EDT: last week
    ev("2026-10-26T03:00:00Z", 10), // local Sun Oct 25: the week before
  ]);
  return u;
}

const ctxOf = (id: string, d: Ctx["db"]): Ctx => ({
  db: d,
  now: () => NOW,
  ports: { ...defaultPorts(), clock: () => NOW },
  requestId: "test",
  caller: {
    userId: id,
    email: "",
    name: null,
    image: null,
    plan: "creator",
    accountComplete: true,
    timezone: TZ,
    publishingAllowed: false,
    appId: "",
    appName: "",
    scopes: ["email"],
  },
});

describe("get_analytics", () => {
  it("matches a hand-computed history across a daylight-saving change", async () => {
    const u = await seed();
    const a = await getAnalytics(ctxOf(u.id, await db()), { area: "overview" });
    expect(getAnalyticsOp.output.safeParse(a).success).toBe(true);
    expect(a.pipeline).toEqual({ ideas: 1, drafts: 1, scheduled: 1, published: 6 });
    // Active local days: Oct 28, 30, 31, Nov 1, 2, 4 (in UTC they would be Oct 28, 30, Nov 1, 2, 3, 4).
    expect(a.consistency).toEqual({
      current_streak_days: 1, // Nov 4; Nov 3 was quiet
      longest_streak_days: 4, // Oct 30 .. Nov 2
      active_days_this_week: 2, // Nov 2, Nov 4
      active_days_this_month: 3, // Nov 1, 2, 4
      missed_scheduled_posts: 1,
      backlog_count: 1,
    });
    expect(a.pillars).toEqual([
      { name: "Craft", count: 3, percentage: 75 },
      { name: "Career", count: 1, percentage: 25 },
    ]);
    // This week 3 + 10 = 13; last week 10 + 10 = 20; (13 - 20) / 20 = -35 %.
    expect(a.credits).toEqual({ this_week_total: 13, last_week_total: 20, change_percent: -35, busiest_day: "2026-11-04" });
    expect(a.activity).toEqual({
      last_7_days_total: 6,
      by_day: [
        { day: "2026-10-29", count: 0 },
        { day: "2026-10-30", count: 1 },
        { day: "2026-10-31", count: 1 },
        { day: "2026-11-01", count: 1 },
        { day: "2026-11-02", count: 1 },
        { day: "2026-11-03", count: 1 }, // the idea at 23:59 local
        { day: "2026-11-04", count: 1 },
      ],
    });
    // Completeness 75 (no traits, no pillars) * 0.6 = 45; 6 active days in the last 14 -> 40 * 6/8 = 30.
    // Seven days ago (to Oct 28): 1 active day -> 45 + 5 = 50, so the trend is up.
    expect(a.profile_score).toEqual({ score: 75, trend: "up" });
    expect(a.sources).toEqual([
      { source: "idea", target: "draft", value: 1 },
      { source: "draft", target: "scheduled", value: 4 },
      { source: "scheduled", target: "published", value: 2 },
    ]);
    expect(a).not.toHaveProperty("forum");
  });

  it("answers one area only, through the API, and counts nothing of other users", async () => {
    await seed();
    const fresh = await makeUser();
    const res = expectOk(await call("get_analytics", { area: "credits" }, { token: fresh.token }), getAnalyticsOp.output);
    expect(Object.keys(res).sort()).toEqual(["area", "credits", "generated_at"]);
    expect(res.credits).toEqual({ this_week_total: 0, last_week_total: 0, change_percent: null, busiest_day: null });
    const all = expectOk(await call("get_analytics", {}, { token: fresh.token }), getAnalyticsOp.output);
    expect(all.area).toBe("overview");
    expect(all.pipeline).toEqual({ ideas: 0, drafts: 0, scheduled: 0, published: 0 });
    const funnel = expectOk(await call("get_analytics", { area: "funnel" }, { token: fresh.token }), getAnalyticsOp.output);
    expect(Object.keys(funnel).sort()).toEqual(["area", "generated_at", "pipeline", "sources"]);
  });
});
