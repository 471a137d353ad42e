// Times on the owner's pages: in the owner's time zone, never the server's.

export function formatInZone(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  }).format(d);
}

export function formatUtc(d: Date): string {
  return formatInZone(d, "UTC");
}

export function formatTime(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", timeZoneName: "short" }).format(d);
}

export function formatDay(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short", year: "numeric" }).format(d);
}

/** "3 hours ago", "just now". */
export function relative(d: Date | null, now = new Date()): string {
  if (!d) return "never";
  const s = Math.round((d.getTime() - now.getTime()) / 1000);
  if (Math.abs(s) < 45) return "just now";
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [["minute", 60], ["hour", 3600], ["day", 86400], ["month", 2592000], ["year", 31536000]];
  let pick: [Intl.RelativeTimeFormatUnit, number] = units[0];
  for (const u of units) if (Math.abs(s) >= u[1]) pick = u;
  return rtf.format(Math.round(s / pick[1]), pick[0]);
}

/** What a connected app may do, in plain words, from its scopes and the owner's switch. */
export function abilities(scopes: string[], publishingAllowed: boolean): string[] {
  const out = ["Read your drafts, series and analytics", "Create and edit drafts", "Generate posts (uses your AI credits)"];
  out.push(publishingAllowed ? "Publish, schedule and delete, each only after you approve the exact action" : "Publish, schedule and delete: off (turn on below)");
  if (scopes.includes("profile")) out.push("See your name and picture");
  if (scopes.includes("offline_access")) out.push("Stay connected until you disconnect it");
  return out;
}

export const OPERATION_WORDS: Record<string, string> = {
  delete_draft: "delete this draft",
  publish_now: "publish this now",
  schedule_content: "schedule this",
  update_draft: "change this scheduled draft",
};

export const PLATFORM_NAMES: Record<string, string> = { post: "LinkedIn", tweet: "X", linkedin: "LinkedIn", twitter: "X" };
