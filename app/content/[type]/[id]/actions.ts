"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ownerForm, ownerStep, type FormDoor } from "@/lib/transports/owner/form";
import { expired, refusal } from "@/lib/transports/auth/form-errors";
import type { DraftType } from "@/lib/domain/drafts/drafts";
import { AppError } from "@/lib/core/errors";
import { zonedToUtc } from "@/components/format";
import type { ActionState } from "@/components/action-form";
import type { ItemState } from "@/components/item-form";
import { deleteDraftOp } from "@/lib/operations/drafts/delete-draft";
import { saveDraftOp } from "@/lib/operations/in-person/save-draft";
import { settleUnknownOp } from "@/lib/operations/in-person/settle-unknown";
import { retryFirstCommentOp } from "@/lib/operations/in-person/retry-first-comment";
import { editLinkCardOp } from "@/lib/operations/in-person/edit-link-card";
import type { AutosaveAnswer } from "@/components/use-autosave";

// The owner's actions on one draft: thin adapters from the page's forms to the one door, the
// owner in person as caller (their page, and its dialog for publish and delete, is the
// confirmation). Each form carries its CSRF token, the key the page made when it was drawn and
// the hash of the content it showed.

const page = (type: DraftType, id: string) => `/content/${type}/${id}`;
const text = (form: FormData, k: string) => String(form.get(k) ?? "");

/** Runs one action; a refusal comes back in the API's words, success reloads the page. */
async function act(type: DraftType, id: string, form: FormData, run: (door: FormDoor) => Promise<string>): Promise<ActionState> {
  if (type !== "post" && type !== "tweet") return { error: "Unknown kind of draft." };
  const to = await ownerStep(form, { page: page(type, id), purpose: `item:${id}`, expired }, run);
  if (typeof to !== "string") return to;
  revalidatePath(page(type, id));
  redirect(to);
}

type Intent = "save" | "schedule" | "unschedule" | "publish";
const INTENTS: Intent[] = ["save", "schedule", "unschedule", "publish"];
/** How a refused step reads after the typed text was saved ("it was not scheduled"). */
const NOT_DONE: Record<Intent, string> = { save: "saved", schedule: "scheduled", unschedule: "unscheduled", publish: "published" };

/** The editor's text as save_draft takes it: the title only for a post and only when given. */
const typedDraft = (type: DraftType, id: string, form: FormData) => {
  const title = type === "post" ? text(form, "title").trim() : "";
  return { type, id, body: text(form, "body").replace(/\r\n/g, "\n"), ...(title && { title }) };
};

/**
 * The item page's one form: the text as typed and the button pressed. Whatever the owner typed
 * is saved first, so scheduling or publishing never acts on older text than the editor shows,
 * and what goes out is the content the owner saved. A refusal comes back with the typed text,
 * which stays on the page.
 */
export async function itemAction(type: DraftType, id: string, timeZone: string, _prev: ItemState, form: FormData): Promise<ItemState> {
  const intent = INTENTS.find((i) => i === form.get("intent")) ?? "save";
  const refused = await act(type, id, form, async (door) => {
    if (!text(form, "body").trim()) throw new AppError("invalid_request", "The text cannot be empty.");
    const at = intent === "schedule" ? zonedToUtc(text(form, "date"), text(form, "time"), timeZone) : null;
    if (intent === "schedule" && !at) throw new AppError("invalid_request", "Choose a date and a time.");
    const out = await door.run(saveDraftOp, { draft: typedDraft(type, id, form), then: intent, ...(at && { scheduled_for: at.toISOString() }) });
    if (out.refused) {
      // The page must show the saved text and act on it next time.
      revalidatePath(page(type, id));
      throw new AppError("action_failed", `Your text was saved, but it was not ${NOT_DONE[intent]}: ${refusal(out.refused)}`);
    }
    const done = out.done ?? "saved";
    return `${page(type, id)}?done=${out.saved && intent !== "save" && !done.startsWith("publish-") ? `saved-${done}` : done}`;
  });
  return refused && { ...refused, intent, typed: { title: text(form, "title"), body: text(form, "body"), basedOn: text(form, "updated_at") } };
}

/**
 * The editor's text saved as the owner pauses, for an unscheduled draft only: a scheduled one
 * changes what goes out, which only a button does. Saved as Save saves it (on top of the
 * content the page showed); the page then goes on from the new version. Only the first
 * autosave of a visit is noted in the history, so typing leaves one entry, not one a pause.
 */
export async function autosave(type: DraftType, id: string, form: FormData): Promise<AutosaveAnswer> {
  if (type !== "post" && type !== "tweet") return { error: "Unknown kind of draft." };
  return ownerForm<AutosaveAnswer>(form, { page: page(type, id), purpose: `item:${id}`, expired }, async (door) => {
    try {
      if (!text(form, "body").trim()) throw new AppError("invalid_request", "The text cannot be empty.");
      const alreadyNoted = form.get("noted") === "1";
      const out = await door.run(saveDraftOp, { draft: typedDraft(type, id, form), autosave: true, ...(alreadyNoted && { alreadyNoted }) }, { key: undefined });
      return { shown: out.shown, updated_at: out.updated_at, at: new Date().toISOString() };
    } catch (e) {
      if (e instanceof AppError) return { error: `Not saved automatically: ${refusal(e)}` };
      throw e;
    }
  });
}

export async function remove(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (door) => {
    await door.run(deleteDraftOp, { type, id });
    return "/content?done=deleted";
  });
}

export async function settle(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (door) => {
    const posted = form.get("outcome") === "posted";
    await door.run(settleUnknownOp, posted ? { type, id, posted, url: text(form, "url") } : { type, id, posted });
    return `${page(type, id)}?done=${posted ? "confirmed-posted" : "confirmed-not-posted"}`;
  });
}

/** The owner tries a failed (or unconfirmed) first comment again; the post itself is not sent again. */
export async function retryComment(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (door) => {
    const out = await door.run(retryFirstCommentOp, { type, id });
    return `${page(type, id)}?done=comment-${out.first_comment}`;
  });
}

/** The owner changes the link card's title and description (a LinkedIn post with a link, before it is scheduled). */
export async function editCard(type: DraftType, id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  return act(type, id, form, async (door) => {
    await door.run(editLinkCardOp, { id, title: text(form, "card_title"), description: text(form, "card_description") });
    return `${page(type, id)}?done=card-saved`;
  });
}
