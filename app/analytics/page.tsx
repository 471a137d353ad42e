import { requireOwner } from "@/lib/transports/auth/session";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { getAnalytics } from "@/lib/domain/analytics/analytics";
import { dollars, micros } from "@/lib/domain/networks/x/pricing";
import { getPostMetrics } from "@/lib/domain/metrics/read";
import { metricWindows } from "@/lib/domain/metrics/schedule";
import { ownerContext } from "@/lib/domain/owner/owner";
import { Bars } from "@/components/charts";
import { OwnerShell } from "@/components/owner-shell";
import { Chart } from "./chart";
import { Engagement } from "./engagement";

export const dynamic = "force-dynamic";
export const metadata = { title: "Analytics · Contentio" };

// The figures of get_analytics (what each means: docs/analytics.md), drawn as charts.
type A = {
  pipeline: { ideas: number; drafts: number; scheduled: number; published: number };
  consistency: {
    current_streak_days: number;
    longest_streak_days: number;
    active_days_this_week: number;
    active_days_this_month: number;
    missed_scheduled_posts: number;
    backlog_count: number;
  };
  pillars: { name: string; count: number; percentage: number }[];
  credits: { this_week_total: number; last_week_total: number; change_percent: number | null; busiest_day: string | null };
  activity: { last_7_days_total: number; by_day: { day: string; count: number }[] };
  x_spend?: { account: string; month: string; estimate_usd: number; cap_usd: number | null }[];
};

const dayLabel = (d: string, o: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short" }) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...o }).format(new Date(`${d}T00:00:00Z`));

const bars = (rows: [string, number][]) => rows.map(([label, value]) => ({ label, value }));

export default async function AnalyticsPage() {
  const me = await requireOwner("/analytics", { complete: true });
  const ctx = ownerContext(await db(), me, ports());
  const [a, engagement] = await Promise.all([getAnalytics(ctx, { area: "overview" }) as unknown as Promise<A>, getPostMetrics(ctx, {})]);
  const p = a.pipeline;
  const c = a.consistency;
  const cr = a.credits;
  // Each chart's table rows and its bars come from one list.
  const stages: [string, number][] = [
    ["Ideas", p.ideas],
    ["Drafts", p.drafts],
    ["Scheduled", p.scheduled],
    ["Published", p.published],
  ];
  const weeks: [string, number][] = [
    ["Last week", cr.last_week_total],
    ["This week", cr.this_week_total],
  ];
  const change =
    cr.change_percent === null ? "no figure for last week to compare with" : `${cr.change_percent > 0 ? "+" : ""}${cr.change_percent}% against last week`;
  return (
    <OwnerShell email={me.email} userId={me.id} current="/analytics" wide>
      <h1>Analytics</h1>
      <p className="muted">Counts of your own activity here, with days in your time zone ({me.timezone}), and how your posts did on the networks.</p>
      <section aria-labelledby="streaks" className="card">
        <h2 id="streaks">Streaks and active days</h2>
        <dl className="tiles">
          <div>
            <dt>Current streak</dt>
            <dd>
              {c.current_streak_days} {c.current_streak_days === 1 ? "day" : "days"}
            </dd>
          </div>
          <div>
            <dt>Longest streak</dt>
            <dd>
              {c.longest_streak_days} {c.longest_streak_days === 1 ? "day" : "days"}
            </dd>
          </div>
          <div>
            <dt>Active days this week</dt>
            <dd>{c.active_days_this_week}</dd>
          </div>
          <div>
            <dt>Active days this month</dt>
            <dd>{c.active_days_this_month}</dd>
          </div>
          <div>
            <dt>Missed scheduled posts</dt>
            <dd>{c.missed_scheduled_posts}</dd>
          </div>
          <div>
            <dt>Drafts waiting (backlog)</dt>
            <dd>{c.backlog_count}</dd>
          </div>
        </dl>
      </section>
      <div className="chart-grid">
        <Chart
          id="pipeline"
          title="Pipeline"
          summary={`${p.ideas} ideas, ${p.drafts} drafts, ${p.scheduled} scheduled, ${p.published} published.`}
          head={["Stage", "Items"]}
          rows={stages}
        >
          <Bars data={bars(stages)} />
        </Chart>
        <Chart
          id="activity"
          title="Activity by day"
          summary={`${a.activity.last_7_days_total} items created in the last 7 days.`}
          head={["Day", "Items created"]}
          rows={a.activity.by_day.map((d) => [dayLabel(d.day), d.count])}
        >
          <Bars data={a.activity.by_day.map((d) => ({ label: dayLabel(d.day, { weekday: "short" }), value: d.count }))} color="#067647" />
        </Chart>
        <Chart
          id="pillars"
          title="Content pillars"
          summary={a.pillars.length ? `${a.pillars.length} ${a.pillars.length === 1 ? "pillar" : "pillars"} in use.` : "No draft has a pillar yet."}
          head={["Pillar", "Drafts (share)"]}
          rows={a.pillars.map((x) => [x.name, `${x.count} (${x.percentage}%)`])}
        >
          {a.pillars.length ? <Bars horizontal data={a.pillars.map((x) => ({ label: x.name, value: x.count }))} color="#8250df" /> : null}
        </Chart>
        <Chart
          id="credits"
          title="AI credits: this week against last"
          summary={`${cr.this_week_total} this week, ${cr.last_week_total} last week: ${change}.`}
          head={["Week", "Credits used"]}
          rows={weeks}
        >
          <Bars data={bars(weeks)} color="#9a6700" />
        </Chart>
      </div>
      {a.x_spend?.length ? (
        <section aria-labelledby="x-spend" className="card">
          <h2 id="x-spend">X this month</h2>
          <p className="muted">
            What this service&apos;s posts and reads on X are estimated to cost ({a.x_spend[0].month}, UTC), at X&apos;s prices. X bills the developer account;
            the cap is set in Settings &gt; Connections.
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Estimate</th>
                <th scope="col">Monthly cap</th>
              </tr>
            </thead>
            <tbody>
              {a.x_spend.map((x) => (
                <tr key={x.account}>
                  <td>{x.account}</td>
                  <td>{dollars(micros(x.estimate_usd))}</td>
                  <td>{x.cap_usd === null ? "none" : dollars(micros(x.cap_usd))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <Engagement data={engagement} timeZone={me.timezone} schedule={metricWindows(ctx.ports.config().METRICS_AFTER).map((w) => w.label)} />
    </OwnerShell>
  );
}
