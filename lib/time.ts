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
