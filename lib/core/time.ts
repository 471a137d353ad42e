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

/** The calendar date and wall-clock time of an instant in a time zone ("2026-11-24", "09:00"). */
export function zonedParts(d: Date, timeZone: string): { date: string; time: string } {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

const offsetMs = (d: Date, timeZone: string) => {
  const { date, time } = zonedParts(d, timeZone);
  return Date.parse(`${date}T${time}:00Z`) - Math.floor(d.getTime() / 60000) * 60000;
};

/**
 * The instant at which the wall clock in `timeZone` shows `date` `time` (what the owner
 * picked). In a daylight-saving gap the clock is read with the offset before the change.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const wall = Date.parse(`${date}T${time}:00Z`);
  if (isNaN(wall)) return null;
  let guess = wall - offsetMs(new Date(wall), timeZone);
  guess = wall - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** An instant as RFC 3339 with the time zone's offset at that instant ("2026-03-30T09:00:00+02:00"). */
export function isoInZone(d: Date, timeZone: string): string {
  const { date, time } = zonedParts(d, timeZone);
  const off = Math.round(offsetMs(d, timeZone) / 60000);
  const sign = off < 0 ? "-" : "+";
  const abs = Math.abs(off);
  return `${date}T${time}:00${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
