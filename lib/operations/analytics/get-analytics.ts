import { z } from "zod";
import { getAnalytics } from "@/lib/domain/analytics/analytics";
import { defineOperation } from "../define";
import { Timestamp } from "../schemas";

const Area = z.enum(["overview", "funnel", "consistency", "pillars", "credits", "x_spend"]);
const n = z.number();

const Output = z.strictObject({
  area: Area,
  generated_at: Timestamp,
  pipeline: z.strictObject({ ideas: n, drafts: n, scheduled: n, published: n }).optional(),
  consistency: z
    .strictObject({
      current_streak_days: n,
      longest_streak_days: n,
      active_days_this_week: n,
      active_days_this_month: n,
      missed_scheduled_posts: n,
      backlog_count: n,
    })
    .optional(),
  pillars: z.array(z.strictObject({ name: z.string(), count: n, percentage: n })).optional(),
  credits: z
    .strictObject({
      this_week_total: n,
      last_week_total: n,
      change_percent: n.nullable(),
      busiest_day: z.string().nullable().describe("Local date YYYY-MM-DD"),
    })
    .optional(),
  activity: z.strictObject({ last_7_days_total: n, by_day: z.array(z.strictObject({ day: z.string(), count: n })) }).optional(),
  profile_score: z.strictObject({ score: n, trend: z.enum(["up", "down", "flat"]) }).optional(),
  sources: z.array(z.strictObject({ source: z.string(), target: z.string(), value: n })).optional(),
  x_spend: z
    .array(
      z.strictObject({
        account: z.string().describe("The X account, as @handle"),
        month: z.string().describe("The calendar month (UTC), YYYY-MM"),
        estimate_usd: n.describe("What this service's posts and reads on X this month are estimated to cost, at X's prices"),
        cap_usd: n.nullable().describe("The owner's monthly cap on this account; null: none"),
      }),
    )
    .optional()
    .describe("Per X account (X charges per post and read): present when the owner has X accounts"),
  notes: z.array(z.string()).optional(),
});

export const getAnalyticsOp = defineOperation({
  name: "get_analytics",
  title: "Numeric summary of own activity",
  summary: "Numeric summary of own activity",
  description:
    "Returns counts of the user's own activity in this service, with days in the user's time zone: pipeline (ideas, drafts, " +
    "scheduled, published) and content flow (funnel), publishing streaks and backlog (consistency), content pillars, AI " +
    "credits this week vs last week (credits), this month's estimated cost on X per X account and its cap (x_spend), and with " +
    "overview also activity by day and a profile score. It has no " +
    "engagement data (likes, impressions, followers), no per-post data and no ids: use search_content and fetch_item for items.",
  permission: "analytics:read",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({
    area: Area.default("overview").describe("overview (everything), or one cheaper part: funnel, consistency, pillars, credits, x_spend"),
  }),
  output: Output,
  run: async (ctx, input) => (await getAnalytics(ctx, input)) as z.input<typeof Output>,
});
