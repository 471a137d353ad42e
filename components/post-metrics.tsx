import type { postMetrics } from "@/drizzle/schema";
import { formatInZone } from "./format";

type Read = typeof postMetrics.$inferSelect;
/** The engagement numbers, in the order every table shows them. */
export const METRIC_COLUMNS = [
  ["impressions", "Impressions"],
  ["likes", "Likes"],
  ["replies", "Replies"],
  ["reposts", "Reposts"],
  ["quotes", "Quotes"],
  ["clicks", "Clicks"],
] as const;

const n = (v: number | null) => (v === null ? "–" : v.toLocaleString("en-GB"));

/** A published post's engagement, read by read (lib/domain/metrics): numbers, or why there are none. */
export function MetricsHistory({ reads, timeZone, firstRead }: { reads: Read[]; timeZone: string; firstRead: string }) {
  if (!reads.length) return <p className="muted">Not read yet: the first read comes {firstRead} after publishing.</p>;
  return (
    // Focusable and named: on a phone the table scrolls sideways, and a keyboard must reach it.
    <div className="table-scroll" tabIndex={0} role="region" aria-label="Engagement at each read">
      <table className="data-table">
        <caption className="sr-only">Engagement of this post at each read</caption>
        <thead>
          <tr>
            <th scope="col">Read</th>
            {METRIC_COLUMNS.map(([k, label]) => (
              <th key={k} scope="col" className="num">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {reads.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                {formatInZone(r.collectedAt, timeZone)} <span className="muted">({r.window} after)</span>
              </th>
              {r.note === null ? (
                METRIC_COLUMNS.map(([k]) => (
                  <td key={k} className="num">
                    {n(r[k])}
                  </td>
                ))
              ) : (
                <td colSpan={METRIC_COLUMNS.length} className="muted">
                  {r.note}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
