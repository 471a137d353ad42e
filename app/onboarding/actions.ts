"use server";
import { redirect } from "next/navigation";
import { safeReturnPath } from "@/lib/auth/return-path";
import { checkCsrf, signedInUserId } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { OnboardingInput, completeOnboarding } from "@/lib/domain/onboarding";

// The submitted text comes back with errors so that the form can show it again.
export type OnboardingState = { error?: string; fields?: Record<string, string>; values?: Record<string, string>; attempt?: number };

export async function saveOnboarding(prev: OnboardingState, form: FormData): Promise<OnboardingState> {
  const text = (k: string) => String(form.get(k) ?? "");
  const values = Object.fromEntries(["name", "timezone", "sample1", "sample2", "sample3", "tone", "niche", "traits", "voiceSummary", "pillars"].map((k) => [k, text(k)]));
  const attempt = (prev.attempt ?? 0) + 1;
  const userId = await signedInUserId();
  if (!userId) redirect("/signin?callbackUrl=/onboarding");
  if (!checkCsrf(userId, "onboarding", form.get("csrf"))) return { error: "This form expired. Reload the page and try again.", values, attempt };
  const parsed = OnboardingInput.safeParse({
    name: text("name"),
    timezone: text("timezone"),
    samplePosts: [text("sample1"), text("sample2"), text("sample3")],
    tone: text("tone"),
    niche: text("niche"),
    traits: text("traits"),
    voiceSummary: text("voiceSummary"),
    pillars: text("pillars"),
  });
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const i of parsed.error.issues) fields[String(i.path[0])] ??= i.message;
    return { error: "Please fix the fields marked below.", fields, values, attempt };
  }
  await completeOnboarding(await db(), userId, parsed.data);
  redirect(safeReturnPath(form.get("next")));
}
