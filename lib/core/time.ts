// Times as people read them: in their own time zone, and in UTC beside it where it matters.

export function formatInZone(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(d);
}

export function formatUtc(d: Date): string {
  return formatInZone(d, "UTC");
}

/**
 * A time PostgreSQL stores and reads back: years 1 to 9999 in UTC. It has no year 0 (an ISO
 * "0000" or "0001-01-01T00:00:00+01:00" is a database error), and JavaScript writes later
 * years in a form it does not read.
 */
/** The last instant of year 9999, the last PostgreSQL's timestamps hold. */
export const LAST_STORABLE_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function storable(d: Date): boolean {
  const y = d.getUTCFullYear();
  return y >= 1 && y <= 9999;
}
