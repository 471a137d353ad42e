// When a published post's engagement is read: METRICS_AFTER's durations after its publishing
// (by default 1 hour, 24 hours, 7 days, then weekly for a month). Pure, for the collector and
// the tests.

export type Window = { label: string; ms: number };

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** METRICS_AFTER ("1h,24h,7d") as windows, earliest first, each once. */
export function metricWindows(spec: string): Window[] {
  const seen = new Map<number, Window>();
  for (const part of spec.split(",")) {
    const m = /^\s*(\d+)([smhd])\s*$/.exec(part);
    if (!m) continue;
    const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
    if (!seen.has(ms)) seen.set(ms, { label: `${m[1]}${m[2]}`, ms });
  }
  return [...seen.values()].sort((a, b) => a.ms - b.ms);
}

/**
 * The read to make now for a post whose next window is `next`: the latest window whose time
 * has come (windows missed while the service was down are not read one after another), and
 * when the one after it is due (null: none is left).
 */
export function planRead(windows: Window[], publishedAt: Date, next: number, now: Date): { index: number; nextIndex: number; nextDueAt: Date | null } | null {
  if (next >= windows.length) return null;
  let index = next;
  while (index + 1 < windows.length && publishedAt.getTime() + windows[index + 1].ms <= now.getTime()) index++;
  const nextIndex = index + 1;
  return { index, nextIndex, nextDueAt: nextIndex < windows.length ? new Date(publishedAt.getTime() + windows[nextIndex].ms) : null };
}
