import { NETWORK_NAMES } from "@/lib/domain/networks";
import { formatInZone, formatUtc, zonedParts, zonedToUtc } from "@/lib/core/time";

export { formatInZone, formatUtc, zonedParts, zonedToUtc };

// Times on the owner's pages: in the owner's time zone, never the server's.

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
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["minute", 60],
    ["hour", 3600],
    ["day", 86400],
    ["month", 2592000],
    ["year", 31536000],
  ];
  let pick: [Intl.RelativeTimeFormatUnit, number] = units[0];
  for (const u of units) if (Math.abs(s) >= u[1]) pick = u;
  return rtf.format(Math.round(s / pick[1]), pick[0]);
}

/** What a connected app may do, in plain words, from its scopes and the owner's switch. */
export function abilities(scopes: string[], publishingAllowed: boolean): string[] {
  const out = ["Read your drafts, series and analytics", "Create and edit drafts", "Generate posts (uses your AI credits)"];
  out.push(
    publishingAllowed ? "Publish, schedule and delete, each only after you approve the exact action" : "Publish, schedule and delete: off (turn on below)",
  );
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

/** A network's name by draft type or by connection provider ("post", "linkedin": LinkedIn). */
export const PLATFORM_NAMES = NETWORK_NAMES;

/** A draft's status in the owner's words (color is never the only signal: always a word). */
export const STATUS_WORDS: Record<string, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  publishing: "Publishing",
  published: "Published",
  failed: "Failed",
  unknown: "Outcome unknown",
  removed: "Removed by the network",
};

export const STATUS_TONE: Record<string, string> = {
  published: "good",
  failed: "warn",
  unknown: "warn",
  removed: "warn",
  scheduled: "info",
  publishing: "info",
};

/** "Test Assistant", "you", "the scheduler": who did something to a draft. */
export function actorName(e: { actor: string; appName: string | null }): string {
  if (e.actor === "owner") return "you";
  if (e.actor === "scheduler") return "the scheduler";
  return e.appName ?? "an app";
}

/** Where the schedule picker starts: the draft's time, else tomorrow at 09:00 in the zone. */
export function pickerStart(at: Date | null, timeZone: string, now = new Date()) {
  if (at) return zonedParts(at, timeZone);
  return { date: zonedParts(new Date(now.getTime() + 24 * 3600 * 1000), timeZone).date, time: "09:00" };
}
