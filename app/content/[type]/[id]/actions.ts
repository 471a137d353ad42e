"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerActionContext } from "@/lib/transports/auth/owner-action";
import { expired, refusal } from "@/lib/transports/auth/form-errors";
import { deleteDraft, type DraftType } from "@/lib/domain/drafts/drafts";
import { forget } from "@/lib/domain/drafts/history";
import { resolveUnknown } from "@/lib/domain/owner/owner";
import type { Ctx } from "@/lib/domain/context";
import { AppError } from "@/lib/core/errors";
import { zonedToUtc } from "@/components/format";
import type { ActionState } from "@/components/action-form";
import type { ItemState } from "@/components/item-form";
import { retryFirstComment } from "@/lib/domain/publishing/first-comment";
import { publishIt, saveTyped, scheduleAt, text, unscheduleIt } from "./steps";

// The owner's actions on one draft. Each re-reads the session and checks the form's CSRF
// token, then runs the same domain function as the API with the owner in person as caller:
// the page (and its dialog for publish and delete) is the confirmation.

const page = (type: DraftType, id: string) => `/content/${type}/${id}`;

const asOwner = (type: DraftType, id: string, form: FormData) =>
  ownerActionContext<ActionState>(form, { page: page(type, id), purpose: `item:${id}`, expired });

/** Runs one action; a refusal comes back in the API's words, success reloads the page. */
async function act(type: DraftType, id: string, form: FormData, run: (ctx: Ctx) => Promise<string>): Promise<ActionState> {
  if (type !== "post" && type !== "tweet") return { error: "Unknown kind of draft." };
  const owner = await asOwner(type, id, form);
  if ("answer" in owner) return owner.answer;
  const { ctx } = owner;
  let to: string;
  try {
    to = await run(ctx);
  } catch (e) {
    if (e instanceof AppError) return { error: refusal(e) };
    throw e;
  }
  revalidatePath(page(type, id));
  redirect(to);
}

// Publishing, scheduling and deleting act on the content the page showed (its hash, in the
// form) and on nothing else: a form without it acts on nothing.
const asShown = (ctx: Ctx, form: FormData): Ctx => ({ ...ctx, shown: text(form, "shown") });

type Intent = "save" | "schedule" | "unschedule" | "publish";
const INTENTS: Intent[] = ["save", "schedule", "unschedule", "publish"];
/** How a refused step reads after the typed text was saved ("it was not scheduled"). */
const NOT_DONE: Record<Intent, string> = { save: "saved", schedule: "scheduled", unschedule: "unscheduled", publish: "published" };

/**
 * The item page's one form: the text as typed and the button pressed. Whatever the owner typed
 * is saved first, so scheduling or publishing never acts on older text than the editor shows,
 * and what goes out is the content the owner saved (its hash is what they approve). A refusal
 * comes back with the typed text, which stays on the page.
 */
export async function itemAction(type: DraftType, id: string, timeZone: string, _prev: ItemState, form: FormData): Promise<ItemState> {
  const intent = INTENTS.find((i) => i === form.get("intent")) ?? "save";
  const refused = await act(type, id, form, async (ctx) => {
    // Checked before anything is saved.
    const at = intent === "schedule" ? zonedToUtc(text(form, "date"), text(form, "time"), timeZone) : null;
    if (intent === "schedule" && !at) throw new AppError("invalid_request", "Choose a date and a time.");
    const { saved, shown } = await saveTyped(ctx, type, id, form);
    const now = { ...ctx, shown };
    let done = "saved";
    try {
      if (intent === "schedule") done = await scheduleAt(now, type, id, at!);
      if (intent === "unschedule") done = await unscheduleIt(now, type, id);
      if (intent === "publish") done = await publishIt(now, type, id);
    } catch (e) {
      if (!saved || !(e instanceof AppError)) throw e;
      // The page must show the saved text and act on it next time.
      revalidatePath(page(type, id));
      throw new AppError(e.code, `Your text was saved, but it was not ${NOT_DONE[intent]}: ${refusal(e)}`);
    }
    return `${page(type, id)}?done=${saved && intent !== "save" && !done.startsWith("publish-") ? `saved-${done}` : done}`;
  });
  return refused && { ...refused, intent, typed: { title: text(form, "title"), body: text(form, "body"), basedOn: text(form, "updated_at") } };
}

export type AutosaveState = { error?: string; shown?: string; updated_at?: string; at?: string } | null;

/**
 * The editor's text saved as the owner pauses, for an unscheduled draft only: a scheduled one
 * changes what goes out, which only a button does. Saved as Save saves it (on top of the
 * content the page showed); the page then goes on from the new version. Only the first
 * autosave of a visit is noted in the history, so typing leaves one entry, not one a pause.
 */
export async function autosave(type: DraftType, id: string, form: FormData): Promise<AutosaveState> {
  if (type !== "post" && type !== "tweet") return { error: "Unknown kind of draft." };
  const owner = await asOwner(type, id, form);
  if ("answer" in owner) return owner.answer;
  const { ctx } = owner;
  try {
    const { shown, updatedAt } = await saveTyped(ctx, type, id, form, { note: form.get("noted") !== "1", onlyDraft: true });
    return { shown, updated_at: updatedAt, at: new Date().toISOString() };
  } catch (e) {
    if (e instanceof AppError) return { error: `Not saved automatically: ${refusal(e)}` };
    throw e;
  }
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

/** The owner tries a failed (or unconfirmed) first comment again; the post itself is not sent again. */
export async function retryComment(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (ctx) => {
    const outcome = await retryFirstComment(ctx.db, ctx.caller.userId, type, id, ctx.ports);
    if (!outcome) throw new AppError("action_failed", "There is no failed first comment to post again; reload the page to see where it stands.");
    return `${page(type, id)}?done=comment-${outcome}`;
  });
}
