"use server";
import { redirect } from "next/navigation";
import { safeReturnPath } from "@/lib/transports/auth/return-path";
import { fieldErrors } from "@/lib/transports/auth/form-errors";
import { ownerAction } from "@/lib/transports/owner/form";
import { db } from "@/lib/adapters/db";
import { OnboardingInput, completeOnboarding } from "@/lib/domain/owner/onboarding";

// The submitted text comes back with errors so that the form can show it again.
export type OnboardingState = { error?: string; fields?: Record<string, string>; values?: Record<string, string>; attempt?: number };

export async function saveOnboarding(prev: OnboardingState, form: FormData): Promise<OnboardingState> {
  const text = (k: string) => String(form.get(k) ?? "");
  const values = Object.fromEntries(
    ["name", "timezone", "sample1", "sample2", "sample3", "tone", "niche", "traits", "voiceSummary", "pillars"].map((k) => [k, text(k)]),
  );
  const attempt = (prev.attempt ?? 0) + 1;
  const expired = () => ({ error: "This form expired. Reload the page and try again.", values, attempt });
  return ownerAction(form, { page: "/onboarding", purpose: "onboarding", expired }, async (userId) => {
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
    if (!parsed.success) return { error: "Please fix the fields marked below.", fields: fieldErrors(parsed.error), values, attempt };
    await completeOnboarding(await db(), userId, parsed.data);
    redirect(safeReturnPath(form.get("next")));
  });
}
