import { networkNamed } from "@/lib/domain/networks";
import type { PostWithMetrics } from "./read";

// The analytics page's table as CSV (RFC 4180). A cell a spreadsheet would read as a formula
// (=, +, -, @, a tab or a carriage return first: a title is the owner's text, or an app's) is
// prefixed with an apostrophe, so opening the file never runs anything (OWASP, CSV injection).

const HEADER = [
  "type",
  "id",
  "title",
  "network",
  "url",
  "published_at",
  "impressions",
  "likes",
  "replies",
  "reposts",
  "quotes",
  "clicks",
  "collected_at",
  "pillar",
];

function cell(v: string | number | null): string {
  if (v === null) return "";
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function metricsCsv(posts: PostWithMetrics[]): string {
  const rows = posts.map((p) => [
    p.type,
    p.id,
    p.title,
    networkNamed(p.network).name,
    p.url,
    p.published_at,
    p.metrics?.impressions ?? null,
    p.metrics?.likes ?? null,
    p.metrics?.replies ?? null,
    p.metrics?.reposts ?? null,
    p.metrics?.quotes ?? null,
    p.metrics?.clicks ?? null,
    p.collected_at,
    p.pillar,
  ]);
  return [HEADER, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}
