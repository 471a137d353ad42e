import Link from "next/link";
import { Bars } from "@/components/charts";
import { METRIC_COLUMNS } from "@/components/post-metrics";
import { formatInZone, zonedParts } from "@/components/format";
import { engagementOf, type getPostMetrics } from "@/lib/domain/metrics/read";
import { networkNamed } from "@/lib/domain/networks";
import { Chart } from "./chart";

// The analytics page's engagement part: how published posts did on their networks, as
// get_post_metrics gives it (docs/analytics.md, Post metrics).

type Data = Awaited<ReturnType<typeof getPostMetrics>>;

const num = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toLocaleString("en-GB"));

/** Monday of the week (owner's time zone) a post went out, as YYYY-MM-DD. */
function weekOf(iso: string, timeZone: string): string {
  const day = new Date(`${zonedParts(new Date(iso), timeZone).date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

const weekLabel = (d: string) => new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short" }).format(new Date(`${d}T00:00:00Z`));

/** METRICS_AFTER in words: "1h, 24h, 7d" → "1h, 24h and 7d". */
const inWords = (labels: string[]) => (labels.length > 1 ? `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}` : (labels[0] ?? ""));

export function Engagement({ data, timeZone, schedule }: { data: Data; timeZone: string; schedule: string[] }) {
  const measured = data.posts.filter((p) => p.metrics);
  const weeks = new Map<string, number>();
  for (const p of [...measured].reverse())
    weeks.set(weekOf(p.published_at, timeZone), (weeks.get(weekOf(p.published_at, timeZone)) ?? 0) + engagementOf(p.metrics!));
  const byWeek: [string, number][] = [...weeks.entries()].map(([w, v]) => [`Week of ${weekLabel(w)}`, v]);
  const { summary } = data;
  const budget = data.read_budget.x;
  return (
    <>
      <h2 id="engagement">Engagement</h2>
      <p className="muted">
        How your published posts of the last 90 days did, as their networks last reported them (read {inWords(schedule)} after publishing). Reads from X this
        month: {budget.used} of {budget.limit} (X charges for each).
      </p>
      {measured.length ? (
        <div className="chart-grid">
          <Chart
            id="engagement-weeks"
            title="Engagement by week of publishing"
            summary={`Likes, replies, reposts, quotes and clicks of ${measured.length} ${measured.length === 1 ? "post" : "posts"}.`}
            head={["Week", "Engagement"]}
            rows={byWeek}
          >
            <Bars data={byWeek.map(([label, value]) => ({ label: label.replace("Week of ", ""), value }))} color="#0a58ca" />
          </Chart>
          <Chart
            id="engagement-pillars"
            title="Average engagement by pillar"
            summary={`Best: ${summary.by_pillar[0].pillar}.`}
            head={["Pillar", "Average engagement (posts)"]}
            rows={summary.by_pillar.map((g) => [g.pillar, `${g.average_engagement} (${g.posts})`])}
          >
            <Bars horizontal data={summary.by_pillar.map((g) => ({ label: g.pillar, value: g.average_engagement }))} color="#8250df" />
          </Chart>
          <Chart
            id="engagement-hours"
            title="Average engagement by hour of publishing"
            summary={`Hours in your time zone (${timeZone}).`}
            head={["Hour", "Average engagement (posts)"]}
            rows={summary.by_hour.map((g) => [`${String(g.hour).padStart(2, "0")}:00`, `${g.average_engagement} (${g.posts})`])}
          >
            <Bars data={summary.by_hour.map((g) => ({ label: `${String(g.hour).padStart(2, "0")}h`, value: g.average_engagement }))} color="#067647" />
          </Chart>
          <section className="card" aria-labelledby="best-h">
            <h2 id="best-h">Best posts</h2>
            <ol>
              {summary.best.map((b) => (
                <li key={b.id}>
                  <Link href={`/content/${b.type}/${b.id}`}>{b.title}</Link>: {num(b.engagement)} engagement, {num(b.impressions)} impressions
                </li>
              ))}
            </ol>
          </section>
        </div>
      ) : (
        <p className="card">No published post has engagement numbers yet.</p>
      )}
      <section className="card" aria-labelledby="posts-h">
        <h2 id="posts-h">Published posts</h2>
        <p>
          <a href="/analytics/post-metrics.csv" download>
            Download as CSV
          </a>
        </p>
        {/* Focusable and named: on a phone the table scrolls sideways, and a keyboard must reach it. */}
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Table of published posts">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Post</th>
                <th scope="col">Network</th>
                <th scope="col">Published</th>
                {METRIC_COLUMNS.map(([k, label]) => (
                  <th key={k} scope="col" className="num">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.posts.map((p) => (
                <tr key={`${p.type}:${p.id}`}>
                  <th scope="row">
                    <Link href={`/content/${p.type}/${p.id}`}>{p.title}</Link>
                  </th>
                  <td>{networkNamed(p.network).name}</td>
                  <td>{formatInZone(new Date(p.published_at), timeZone)}</td>
                  {METRIC_COLUMNS.map(([k]) => (
                    <td key={k} className="num">
                      {num(p.metrics?.[k])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {data.notes.length ? (
          <details>
            <summary>Why some posts have no numbers ({data.notes.length})</summary>
            <ul>
              {data.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>
    </>
  );
}
