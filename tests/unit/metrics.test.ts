import { describe, expect, it } from "vitest";
import { metricsCsv } from "@/lib/domain/metrics/csv";
import type { PostWithMetrics } from "@/lib/domain/metrics/read";
import { metricWindows, planRead } from "@/lib/domain/metrics/schedule";

const H = 3600_000;

describe("the schedule of engagement reads", () => {
  const windows = metricWindows("1h, 24h,7d,1h,bogus");
  const at = new Date("2026-11-01T09:00:00Z");
  it("reads METRICS_AFTER as durations, earliest first, each once", () => {
    expect(windows.map((w) => [w.label, w.ms])).toEqual([
      ["1h", H],
      ["24h", 24 * H],
      ["7d", 7 * 24 * H],
    ]);
  });
  it("reads the latest window due and names the next, or none after the last", () => {
    expect(planRead(windows, at, 0, new Date(at.getTime() + H))).toEqual({ index: 0, nextIndex: 1, nextDueAt: new Date(at.getTime() + 24 * H) });
    // Ten days down: one read for the 7-day window, and the schedule is over.
    expect(planRead(windows, at, 0, new Date(at.getTime() + 240 * H))).toEqual({ index: 2, nextIndex: 3, nextDueAt: null });
    expect(planRead(windows, at, 3, new Date(at.getTime() + 999 * H))).toBeNull();
  });
});

describe("the engagement CSV", () => {
  const post = (title: string): PostWithMetrics => ({
    type: "post",
    id: "p1",
    title,
    platform: "pronet",
    network: "linkedin",
    url: "https://www.linkedin.com/feed/update/urn:li:share:1",
    published_at: "2026-11-01T09:00:00.000Z",
    metrics: { impressions: 10, likes: 2, replies: null, reposts: 0, quotes: null, clicks: null },
    collected_at: "2026-11-01T10:00:00.000Z",
    pillar: null,
  });
  it("never lets a spreadsheet read a title as a formula, and quotes what needs quoting", () => {
    const [, row] = metricsCsv([post('=HYPERLINK("http://evil","x"), and more')]).split("\r\n");
    expect(row).toBe(
      `post,p1,"'=HYPERLINK(""http://evil"",""x""), and more",LinkedIn,https://www.linkedin.com/feed/update/urn:li:share:1,` +
        "2026-11-01T09:00:00.000Z,10,2,,0,,,2026-11-01T10:00:00.000Z,",
    );
    for (const start of ["+", "-", "@", "\t"]) expect(metricsCsv([post(`${start}1`)]).split("\r\n")[1]).toContain(`'${start}1`);
  });
});
