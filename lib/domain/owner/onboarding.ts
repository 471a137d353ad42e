import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/adapters/db";
import { users } from "@/drizzle/schema";

// Onboarding: what the API's account_incomplete refers to. Finishing it (name, time zone and
// voice) sets users.account_completed_at; until then every API call answers account_incomplete.

export function isTimeZone(tz: string): boolean {
  try {
    return Boolean(tz) && new Intl.DateTimeFormat("en", { timeZone: tz }).resolvedOptions().timeZone.length > 0;
  } catch {
    return false;
  }
}

const cityKey = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, " ");
let cities: Map<string, string | null> | undefined;

/**
 * The IANA zone a person typed: a zone's name in any case ("europe/berlin"), or the city it is
 * named after ("Berlin", "new york", "Sao_Paulo"), as the time-zone box suggests them. A city
 * that names more than one zone is none. Undefined when nothing matches.
 */
export function zoneNamed(typed: string): string | undefined {
  const t = typed.trim();
  if (isTimeZone(t)) return new Intl.DateTimeFormat("en", { timeZone: t }).resolvedOptions().timeZone;
  if (!cities) {
    cities = new Map();
    for (const zone of Intl.supportedValuesOf("timeZone")) {
      const city = cityKey(zone.slice(zone.lastIndexOf("/") + 1));
      cities.set(city, cities.has(city) ? null : zone);
    }
  }
  return cities.get(cityKey(t)) ?? undefined;
}

const list = (max: number) =>
  z
    .string()
    .max(1000)
    .transform((v) =>
      v
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(60)).max(max));

export const OnboardingInput = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(100, "Use at most 100 characters."),
  timezone: z
    .string()
    .max(100)
    // Typed into a searchable box: stored as the zone's own spelling ("europe/berlin" and "Berlin" are Europe/Berlin).
    .transform(
      (typed, c) =>
        zoneNamed(typed) ?? (c.addIssue({ code: "custom", message: "Choose a time zone or a city from the list (for example Europe/Berlin)." }), z.NEVER),
    ),
  samplePosts: z
    .array(z.string().trim().max(3000, "A sample post can have at most 3,000 characters."))
    .transform((a) => a.filter(Boolean))
    .pipe(z.array(z.string()).min(1, "Paste at least one post you wrote.").max(5)),
  tone: list(8).pipe(z.array(z.string()).min(1, "Give at least one word for your tone.")),
  niche: z
    .string()
    .trim()
    .max(200)
    .transform((v) => v || null),
  traits: list(10),
  voiceSummary: z
    .string()
    .trim()
    .max(500)
    .transform((v) => v || null),
  // One pillar a line: "Name: description" (the description is optional).
  pillars: z
    .string()
    .max(3000)
    .transform((v) =>
      v
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => {
          const i = l.indexOf(":");
          const name = (i < 0 ? l : l.slice(0, i)).trim().slice(0, 80);
          const description = i < 0 ? null : l.slice(i + 1).trim() || null;
          return { name, description };
        }),
    )
    .pipe(z.array(z.object({ name: z.string().min(1), description: z.string().nullable() })).max(10, "Use at most 10 pillars.")),
});
export type OnboardingInput = z.input<typeof OnboardingInput>;

export async function getProfile(db: Db, userId: string) {
  const [u] = await db
    .select({
      email: users.email,
      name: users.name,
      timezone: users.timezone,
      samplePosts: users.samplePosts,
      tone: users.tone,
      niche: users.niche,
      traits: users.traits,
      pillars: users.pillars,
      voiceSummary: users.voiceSummary,
      accountCompletedAt: users.accountCompletedAt,
      onboardedAt: users.onboardedAt,
      publishingAllowed: users.publishingAllowed,
      plan: users.plan,
    })
    .from(users)
    .where(eq(users.id, userId));
  return u;
}

/**
 * Whether signing in to this account should land on onboarding rather than the home page: a
 * complete account whose profile was never saved (the owner the first start made).
 */
export async function awaitsOnboarding(db: Db, email: string): Promise<boolean> {
  const [u] = await db
    .select({ complete: users.accountCompletedAt, onboarded: users.onboardedAt })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  return !!u?.complete && !u.onboarded;
}

/** Saves the onboarding answers and marks the account complete (and onboarded). */
export async function completeOnboarding(db: Db, userId: string, input: z.output<typeof OnboardingInput>) {
  const now = new Date();
  await db
    .update(users)
    .set({ ...input, accountCompletedAt: now, onboardedAt: now, updatedAt: now })
    .where(eq(users.id, userId));
}
