import { eq, sql, type SQL } from "drizzle-orm";
import { creditEvents, ideas, postDrafts, tweetDrafts, users } from "@/drizzle/schema";
import { rowsOf } from "@/lib/adapters/db/rows";
import { monthOnX } from "../spend/x-spend";
import type { Ctx } from "../context";

// get_analytics: counts of the user's own data, with days taken in the user's
// time zone (users.timezone). Every figure is defined in docs/analytics.md; keep them in step.

export type Area = "overview" | "funnel" | "consistency" | "pillars" | "credits" | "x_spend";

type Row = Record<string, unknown>;
async function rows(ctx: Ctx, q: SQL): Promise<Row[]> {
  return rowsOf<Row>(await ctx.db.execute(q));
}

// Both draft tables, as one set of rows (the queries below read these aliases).
const draftRows = (t: typeof postDrafts | typeof tweetDrafts, ideaId: SQL) =>
  sql`select ${t.userId} as user_id, ${t.status} as status, ${t.pillar} as pillar, ${t.scheduledFor} as scheduled_for,
    ${t.publishedAt} as published_at, ${t.createdAt} as created_at, ${ideaId} as idea_id from ${t}`;
const DRAFTS = sql`(${draftRows(postDrafts, sql`${postDrafts.ideaId}`)} union all ${draftRows(tweetDrafts, sql`null::uuid`)})`;

const day = (d: string, n: number) => {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
};

function streaks(days: Set<string>, today: string) {
  let current = 0;
  // A streak still counts until the day after: today not yet active keeps yesterday's streak.
  let d = days.has(today) ? today : day(today, -1);
  while (days.has(d)) {
    current++;
    d = day(d, -1);
  }
  let longest = 0;
  for (const x of days) {
    if (days.has(day(x, -1))) continue;
    let n = 0;
    while (days.has(day(x, n))) n++;
    longest = Math.max(longest, n);
  }
  return { current, longest };
}

const pct = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

export async function getAnalytics(ctx: Ctx, input: { area: Area }) {
  const uid = ctx.caller.userId;
  const tz = ctx.caller.timezone;
  const now = ctx.now();
  const local = (col: SQL) => sql`to_char((${col}) at time zone ${tz}, 'YYYY-MM-DD')`;
  const [{ today, week_start, month_start }] = (await rows(
    ctx,
    sql`select ${local(sql`${now.toISOString()}::timestamptz`)} as today,
      to_char(date_trunc('week', ${now.toISOString()}::timestamptz at time zone ${tz}), 'YYYY-MM-DD') as week_start,
      to_char(date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${tz}), 'YYYY-MM-DD') as month_start`,
  )) as { today: string; week_start: string; month_start: string }[];
  const all = input.area === "overview";
  const out: Record<string, unknown> = { area: input.area, generated_at: now.toISOString() };
  const active = async () =>
    new Set(
      (
        await rows(
          ctx,
          sql`select distinct ${local(sql`published_at`)} as d from ${DRAFTS} x
            where user_id = ${uid} and status = 'published' and published_at <= ${now.toISOString()}::timestamptz`,
        )
      ).map((r) => r.d as string),
    );

  if (all || input.area === "funnel") {
    const [p] = await rows(
      ctx,
      sql`select (select count(*) from ${ideas} where ${ideas.userId} = ${uid} and ${ideas.status} = 'new')::int as ideas,
        count(*) filter (where status = 'draft')::int as drafts,
        count(*) filter (where status = 'scheduled')::int as scheduled,
        count(*) filter (where status = 'published')::int as published,
        count(*) filter (where idea_id is not null)::int as from_ideas,
        count(*) filter (where scheduled_for is not null)::int as ever_scheduled,
        count(*) filter (where scheduled_for is not null and status = 'published')::int as scheduled_published
      from ${DRAFTS} x where user_id = ${uid}`,
    );
    out.pipeline = { ideas: p.ideas, drafts: p.drafts, scheduled: p.scheduled, published: p.published };
    out.sources = [
      { source: "idea", target: "draft", value: p.from_ideas },
      { source: "draft", target: "scheduled", value: p.ever_scheduled },
      { source: "scheduled", target: "published", value: p.scheduled_published },
    ];
  }
  if (all || input.area === "consistency") {
    const days = await active();
    const s = streaks(days, today);
    const [c] = await rows(
      ctx,
      sql`select count(*) filter (where status = 'failed' and scheduled_for is not null)::int as missed,
        count(*) filter (where status = 'draft')::int as backlog from ${DRAFTS} x where user_id = ${uid}`,
    );
    out.consistency = {
      current_streak_days: s.current,
      longest_streak_days: s.longest,
      active_days_this_week: [...days].filter((d) => d >= week_start && d <= today).length,
      active_days_this_month: [...days].filter((d) => d >= month_start && d <= today).length,
      missed_scheduled_posts: c.missed,
      backlog_count: c.backlog,
    };
  }
  if (all || input.area === "pillars") {
    const ps = await rows(
      ctx,
      sql`select pillar as name, count(*)::int as count from ${DRAFTS} x where user_id = ${uid} and pillar is not null
        group by pillar order by count(*) desc, pillar`,
    );
    const total = ps.reduce((n, r) => n + (r.count as number), 0);
    out.pillars = ps.map((r) => ({ name: r.name as string, count: r.count as number, percentage: pct(r.count as number, total) }));
  }
  if (all || input.area === "credits") {
    const since = day(week_start, -7);
    const byDay = await rows(
      ctx,
      sql`select ${local(sql`${creditEvents.createdAt}`)} as d, sum(${creditEvents.credits})::int as n from ${creditEvents}
        where ${creditEvents.userId} = ${uid} and ${creditEvents.refundedAt} is null and ${creditEvents.createdAt} <= ${now.toISOString()}::timestamptz
          and ${creditEvents.createdAt} >= ${now.toISOString()}::timestamptz - interval '16 days' group by 1`,
    );
    const sum = (from: string, to: string) => byDay.filter((r) => (r.d as string) >= from && (r.d as string) < to).reduce((n, r) => n + (r.n as number), 0);
    const thisWeek = sum(week_start, day(today, 1));
    const lastWeek = sum(since, week_start);
    const busiest = byDay
      .filter((r) => (r.d as string) >= week_start)
      .sort((a, b) => (b.n as number) - (a.n as number) || String(a.d).localeCompare(String(b.d)))[0];
    out.credits = {
      this_week_total: thisWeek,
      last_week_total: lastWeek,
      change_percent: lastWeek === 0 ? null : pct(thisWeek - lastWeek, lastWeek),
      busiest_day: (busiest?.d as string) ?? null,
    };
  }
  if (all) {
    const first = day(today, -6);
    const created = await rows(
      ctx,
      sql`select d, count(*)::int as n from (
          select ${local(sql`created_at`)} as d from ${DRAFTS} x where user_id = ${uid}
          union all select ${local(sql`${ideas.createdAt}`)} from ${ideas} where ${ideas.userId} = ${uid}) c
        where d between ${first} and ${today} group by d`,
    );
    const by_day = Array.from({ length: 7 }, (_, i) => day(first, i)).map((d) => ({ day: d, count: (created.find((r) => r.d === d)?.n as number) ?? 0 }));
    out.activity = { last_7_days_total: by_day.reduce((n, d) => n + d.count, 0), by_day };
    out.profile_score = await profileScore(ctx, await active(), today);
  }
  // What this month's posts and reads on X are estimated to cost, per X account (lib/domain/spend).
  if (all || input.area === "x_spend") {
    const months = await monthOnX(ctx.db, uid, now);
    if (months.length || input.area === "x_spend") out.x_spend = months;
  }
  return out;
}

/**
 * 60% profile completeness (summary 20, tone 10, three sample posts 25, niche 20, traits 10,
 * pillars 15) + 40% publishing rhythm (active days in the last 14, full at 8). The trend
 * compares with the same score 7 days ago (the rhythm part is what moves).
 */
async function profileScore(ctx: Ctx, days: Set<string>, today: string) {
  const [u] = await ctx.db.select().from(users).where(eq(users.id, ctx.caller.userId));
  const complete =
    (u.voiceSummary ? 20 : 0) +
    (u.tone.length ? 10 : 0) +
    (u.samplePosts.length >= 3 ? 25 : 0) +
    (u.niche ? 20 : 0) +
    (u.traits.length ? 10 : 0) +
    (u.pillars.length ? 15 : 0);
  const rhythm = (end: string) => Math.min(1, [...days].filter((d) => d > day(end, -14) && d <= end).length / 8);
  const at = (end: string) => Math.round(0.6 * complete + 40 * rhythm(end));
  const score = at(today);
  const before = at(day(today, -7));
  return { score, trend: score > before ? "up" : score < before ? "down" : "flat" };
}
