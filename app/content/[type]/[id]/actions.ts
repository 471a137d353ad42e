"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerAction } from "@/lib/auth/owner-action";
import { db } from "@/lib/db";
import { deleteDraft, type DraftType } from "@/lib/domain/drafts";
import { updateDraft } from "@/lib/domain/edit-draft";
import { forget, noteByCaller } from "@/lib/domain/history";
import { getProfile } from "@/lib/domain/onboarding";
import { ownerContext, ownerDraft, resolveUnknown } from "@/lib/domain/owner";
import { publishNow, scheduleContent, unscheduleContent } from "@/lib/domain/schedule";
import type { Ctx } from "@/lib/domain/context";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/operations/execute";
import { updateDraftOp } from "@/lib/operations/update-draft";
import { zonedToUtc } from "@/components/format";
import type { ActionState } from "@/components/action-form";

// The owner's actions on one draft. Each re-reads the session and checks the form's CSRF
// token, then runs the same domain function as the API with the owner in person as caller:
// the page (and its dialog for publish and delete) is the confirmation.

const page = (type: DraftType, id: string) => `/content/${type}/${id}`;

const expired = (): ActionState => ({ error: "This page had expired, so nothing changed. Reload it and try again." });

const asOwner = (type: DraftType, id: string, form: FormData) =>
  ownerAction<Ctx | ActionState>(form, { page: page(type, id), purpose: `item:${id}`, expired }, async (userId) => {
    const profile = await getProfile(await db(), userId);
    if (!profile) redirect("/signin");
    return ownerContext(await db(), { id: userId, ...profile });
  });

/** Runs one action; a refusal comes back in the API's words, success reloads the page. */
async function act(type: DraftType, id: string, form: FormData, run: (ctx: Ctx) => Promise<string>): Promise<ActionState> {
  if (type !== "post" && type !== "tweet") return { error: "Unknown kind of draft." };
  const ctx = await asOwner(type, id, form);
  if (!ctx || !("caller" in ctx)) return ctx as ActionState;
  let to: string;
  try {
    to = await run(ctx);
  } catch (e) {
    // A field problem says which; anything else in the API's message and hint.
    if (e instanceof AppError)
      return { error: e.details?.length ? e.details.map((d) => `${d.message}.`).join(" ") : [e.message, e.hint].filter(Boolean).join(" ") };
    throw e;
  }
  revalidatePath(page(type, id));
  redirect(to);
}

const text = (form: FormData, k: string) => String(form.get(k) ?? "");

// Publishing, scheduling and deleting act on the content the page showed (its hash, in the
// form) and on nothing else: a form without it acts on nothing.
const asShown = (ctx: Ctx, form: FormData): Ctx => ({ ...ctx, shown: text(form, "shown") });

export async function saveDraft(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (ctx) => {
    const body = text(form, "body").replace(/\r\n/g, "\n");
    const title = type === "post" ? text(form, "title").trim() : undefined;
    if (!body.trim()) throw new AppError("invalid_request", "The text cannot be empty.");
    // Checked as an app's update_draft is (lengths, X's count), then the same domain function.
    const input = parseInput(updateDraftOp, {
      type,
      id,
      body,
      ...(title && { title }),
      ...(text(form, "updated_at") && { if_updated_at: text(form, "updated_at") }),
    });
    await updateDraft(ctx, input);
    await noteByCaller(ctx, { type, id, kind: "edited", detail: { fields: title ? "title, body" : "body" } });
    return `${page(type, id)}?done=saved`;
  });
}

export async function schedule(type: DraftType, id: string, timeZone: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (ctx) => {
    const at = zonedToUtc(text(form, "date"), text(form, "time"), timeZone);
    if (!at) throw new AppError("invalid_request", "Choose a date and a time.");
    const out = await scheduleContent(asShown(ctx, form), { type, id, scheduled_for: at.toISOString() });
    await noteByCaller(ctx, { type, id, kind: "scheduled", detail: { scheduled_for: out.scheduled_for } });
    return `${page(type, id)}?done=${out.rescheduled ? "rescheduled" : "scheduled"}`;
  });
}

export async function unschedule(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (ctx) => {
    const out = await unscheduleContent(ctx, { type, id });
    if (out.unscheduled) await noteByCaller(ctx, { type, id, kind: "unscheduled", detail: { previous_scheduled_for: out.previous_scheduled_for } });
    return `${page(type, id)}?done=unscheduled`;
  });
}

export async function publish(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (ctx) => {
    const before = (await ownerDraft(ctx, type, id))?.record.claimedAt?.getTime();
    try {
      await publishNow(asShown(ctx, form), { type, id });
      return `${page(type, id)}?done=published`;
    } catch (e) {
      // The draft was claimed and the platform called (now unknown, failed, or back to
      // scheduled for a retry): the page itself shows what happened and what to do next.
      const after = await ownerDraft(ctx, type, id);
      if (e instanceof AppError && after && after.record.claimedAt?.getTime() !== before) return `${page(type, id)}?done=publish-${after.item.status}`;
      throw e;
    }
  });
}

export async function remove(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (ctx) => {
    await deleteDraft(asShown(ctx, form), { type, id });
    await forget(ctx.db, ctx.caller.userId, id);
    return "/content?done=deleted";
  });
}

export async function settle(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (ctx) => {
    const posted = form.get("outcome") === "posted";
    await resolveUnknown(ctx, posted ? { type, id, posted, url: text(form, "url") } : { type, id, posted });
    return `${page(type, id)}?done=${posted ? "confirmed-posted" : "confirmed-not-posted"}`;
  });
}
