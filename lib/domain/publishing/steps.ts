import { AppError } from "@/lib/core/errors";
import type { Ctx } from "../context";
import type { DraftType } from "../drafts/drafts";
import { ownerDraft } from "../owner/owner";
import { publishNow, scheduleContent, unscheduleContent } from "./schedule";

// What the owner's pages do right after saving a draft, by the button pressed: publish it,
// schedule or queue it, or take it off the schedule. Each is the API's own domain function,
// with the owner in person, on the content the save left (`shown`): the one the page had.

export type Step = "save" | "queue" | "schedule" | "unschedule" | "publish";

/** What a step did, as the page reports it; `publish-<status>`: the network was called and the draft is now that. */
export type StepDone = { done: string; scheduled_for?: string; previous_scheduled_for?: string | null };

/** A step refused after the drafts were saved: they stay saved, and the page says why the rest did not happen. */
export type Refusal = Pick<AppError, "code" | "message" | "hint" | "details">;
export const refusalOf = (e: AppError): Refusal => ({
  code: e.code,
  message: e.message,
  ...(e.hint && { hint: e.hint }),
  ...(e.details?.length && { details: e.details }),
});

export async function takeStep(ctx: Ctx, d: { type: DraftType; id: string }, step: Exclude<Step, "save">, at?: string): Promise<StepDone> {
  if (step === "unschedule") {
    const out = await unscheduleContent(ctx, d);
    return out.unscheduled ? { done: "unscheduled", previous_scheduled_for: out.previous_scheduled_for } : { done: "unscheduled" };
  }
  if (step === "publish") return publishHere(ctx, d);
  if (step === "schedule" && !at) throw new AppError("invalid_request", "Choose a date and a time.");
  const out = await scheduleContent(ctx, { ...d, ...(step === "queue" ? { slot: "next" as const } : { scheduled_for: at }) });
  return { done: step === "queue" ? "queued" : out.rescheduled ? "rescheduled" : "scheduled", scheduled_for: out.scheduled_for };
}

/**
 * Publishes on the owner's page: when the draft was claimed and the network called, what
 * happened (failed, unknown, a retry waiting) is for the page itself to show, so that is the
 * answer rather than a refusal; a refusal before any call is one.
 */
async function publishHere(ctx: Ctx, d: { type: DraftType; id: string }): Promise<StepDone> {
  const before = (await ownerDraft(ctx, d.type, d.id))?.record.claimedAt?.getTime();
  try {
    await publishNow(ctx, d);
    return { done: "published" };
  } catch (e) {
    const after = await ownerDraft(ctx, d.type, d.id);
    if (e instanceof AppError && after && after.record.claimedAt?.getTime() !== before) return { done: `publish-${after.item.status}` };
    throw e;
  }
}
