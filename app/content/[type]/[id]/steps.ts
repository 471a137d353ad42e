import { changedSinceShown } from "@/lib/domain/approvals/approvals";
import { contentHashOf } from "@/lib/domain/drafts/content-hash";
import type { Ctx } from "@/lib/domain/context";
import { loadOwn, type DraftType } from "@/lib/domain/drafts/drafts";
import { editDraft } from "@/lib/domain/drafts/edit";
import { noteByCaller, noteScheduled } from "@/lib/domain/drafts/history";
import { ownerDraft } from "@/lib/domain/owner/owner";
import { publishNow, scheduleContent, unscheduleContent } from "@/lib/domain/publishing/schedule";
import { AppError } from "@/lib/core/errors";
import { parseInput } from "@/lib/operations/execute";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";

// The steps of the item page's actions (actions.ts), each the API's own domain function with
// the owner in person as caller and its entry in the draft's history.

export const text = (form: FormData, k: string) => String(form.get(k) ?? "");

/**
 * The text as typed, saved when it differs from the draft's: checked as an app's update_draft
 * is (lengths, X's count), then the same domain function. Only on top of the content the page
 * showed; gives the hash of the content the pressed action may then act on.
 */
export async function saveTyped(
  ctx: Ctx,
  type: DraftType,
  id: string,
  form: FormData,
  o: { note?: boolean; onlyDraft?: boolean } = {},
): Promise<{ saved: boolean; shown: string; updatedAt: string }> {
  const body = text(form, "body").replace(/\r\n/g, "\n");
  const title = type === "post" ? text(form, "title").trim() : "";
  if (!body.trim()) throw new AppError("invalid_request", "The text cannot be empty.");
  const shown = text(form, "shown");
  const d = await loadOwn(ctx.db, ctx, type, id);
  // An autosave: a scheduled draft changes what goes out, which only a button does.
  if (o.onlyDraft && d.status !== "draft") throw new AppError("action_failed", "It is no longer an unscheduled draft: use the buttons.");
  if (contentHashOf(d) !== shown) throw changedSinceShown(type);
  if (body === d.body && (!title || title === d.title)) return { saved: false, shown, updatedAt: d.updatedAt.toISOString() };
  const input = parseInput(updateDraftOp, { type, id, body, ...(title && { title }), if_updated_at: d.updatedAt.toISOString() });
  // The page's hash too: an edit of a scheduled draft is the owner's approval of the new content.
  const { out, contentHash } = await editDraft({ ...ctx, shown }, input);
  const fields = [title && title !== d.title && "title", body !== d.body && "body"].filter(Boolean).join(", ");
  if (o.note !== false) await noteByCaller(ctx, { type, id, kind: "edited", detail: { fields } });
  return { saved: true, shown: contentHash, updatedAt: out.updated_at };
}

export async function scheduleAt(ctx: Ctx, type: DraftType, id: string, at: Date) {
  const out = await scheduleContent(ctx, { type, id, scheduled_for: at.toISOString() });
  await noteScheduled(ctx, type, id, out.scheduled_for);
  return out.rescheduled ? "rescheduled" : "scheduled";
}

export async function unscheduleIt(ctx: Ctx, type: DraftType, id: string) {
  const out = await unscheduleContent(ctx, { type, id });
  if (out.unscheduled) await noteByCaller(ctx, { type, id, kind: "unscheduled", detail: { previous_scheduled_for: out.previous_scheduled_for } });
  return "unscheduled";
}

export async function publishIt(ctx: Ctx, type: DraftType, id: string) {
  const before = (await ownerDraft(ctx, type, id))?.record.claimedAt?.getTime();
  try {
    await publishNow(ctx, { type, id });
    return "published";
  } catch (e) {
    // The draft was claimed and the platform called (now unknown, failed, or back to
    // scheduled for a retry): the page itself shows what happened and what to do next.
    const after = await ownerDraft(ctx, type, id);
    if (e instanceof AppError && after && after.record.claimedAt?.getTime() !== before) return `publish-${after.item.status}`;
    throw e;
  }
}
