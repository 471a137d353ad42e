"use server";
import { ownerForm } from "@/lib/transports/owner/form";
import { refusal } from "@/lib/transports/auth/form-errors";
import { AppError } from "@/lib/core/errors";
import type { DraftType } from "@/lib/domain/drafts/drafts";
import { composeOp } from "@/lib/operations/in-person/compose";
import { saveDraftOp } from "@/lib/operations/in-person/save-draft";
import { zonedToUtc } from "@/components/format";
import { field, sentParts } from "./form";
import { altsOf, composedFields, editedDraft } from "./edit";
import type { AutosaveAnswer } from "@/components/use-autosave";

// The composer's one form (composer.tsx): what was written for each network, and the button
// pressed, through the one door as the owner in person: new drafts by `compose`, a draft being
// edited by `save_draft`. Whatever happens after the drafts are saved, they stay saved: a
// refusal says so and names them, and nothing typed is lost.

/** `fields`: the ids of the composer's fields the error is about (they are marked and linked). */
export type ComposeState = { error?: string; fields?: string[]; saved?: { type: DraftType; id: string }[]; to?: string } | null;

type Intent = "save" | "queue" | "schedule" | "publish";
const DONE: Record<Intent, string> = { save: "saved", queue: "queued", schedule: "scheduled", publish: "published" };
const expired = () => ({ error: "This page had expired, so nothing was saved. Your text is kept: press the button again." });

/** create_draft's input for what was written for `type`. */
function newDraft(type: DraftType, form: FormData, o: { comment: boolean }) {
  const f = composedFields(type, form);
  const account = field(form, `${type}_account`);
  return {
    type,
    body: f.body,
    ...(f.image_urls.length && { image_urls: f.image_urls }),
    ...(f.document_url && { document_url: f.document_url, ...(f.document_title && { document_title: f.document_title }) }),
    ...(f.thread?.length && { thread: f.thread.map((p) => (p.image_urls.length ? p : p.text)) }),
    ...(o.comment && f.first_comment && { first_comment: f.first_comment }),
    ...(account && { account_id: account }),
  };
}

/** update_draft's fields for the draft being edited: the account only when its choice changed (the default and "the default" differ). */
function editedFields(type: DraftType, id: string, form: FormData) {
  const account = field(form, `${type}_account`);
  return {
    type,
    id,
    ...composedFields(type, form),
    ...(account !== field(form, "account_was") && { account_id: account || null }),
    ...(field(form, "updated_at") && { if_updated_at: field(form, "updated_at") }),
  };
}

/** The composer's field each refused input path names: the time, the post's text, a tweet's part, the first comment. */
function fieldsOf(details: { path: string }[] | undefined, form: FormData, on: { post: boolean; tweet: boolean }): string[] {
  const out = (details ?? []).map(({ path }) => {
    const part = /^(?:drafts\.\d+\.)?thread\.(\d+)/.exec(path);
    if (part) return `part-${Number(part[1]) + 1}`;
    if (path.endsWith("scheduled_for")) return "time";
    if (path.endsWith("first_comment")) return "first_comment";
    if (!path.endsWith("body")) return null;
    // Both written: the post's text is the one in error only when it is past LinkedIn's length.
    const postOver = Array.from(field(form, "post_body")).length > 3000;
    return on.post && (!on.tweet || postOver) ? "post_body" : "part-0";
  });
  return [...new Set(out.filter((x): x is string => !!x))];
}

export async function composeAction(_prev: ComposeState, form: FormData): Promise<ComposeState> {
  return ownerForm<ComposeState>(form, { page: "/write", purpose: "write", expired }, async (door) => {
    const intent = (["save", "queue", "schedule", "publish"] as const).find((i) => i === form.get("intent")) ?? "save";
    const edit = editedDraft(form);
    // An edit is of the one draft it opened; a new one goes where it was ticked.
    const onLinkedIn = edit ? edit.type === "post" : form.get("to_post") === "on";
    const onX = edit ? edit.type === "tweet" : form.get("to_tweet") === "on";
    if (!onLinkedIn && !onX) return { error: "Choose where it goes: LinkedIn, X or both." };
    const at = intent === "schedule" ? zonedToUtc(field(form, "date"), field(form, "time"), door.caller.timezone) : null;
    if (intent === "schedule" && !at) return { error: "Choose a date and a time.", fields: ["time"] };
    const thread = sentParts(form);
    const orUntick = edit ? "." : ", or untick where it goes.";
    if (onLinkedIn && !field(form, "post_body").trim()) return { error: `Write the post's text${orUntick}`, fields: ["post_body"] };
    if (onX && !thread[0]?.trim()) return { error: `Write the tweet's text${orUntick}`, fields: ["part-0"] };
    const empty = thread.findIndex((p) => !p.trim());
    if (onX && empty > 0) return { error: `Part ${empty + 1} of the thread is empty: write it or remove it.`, fields: [`part-${empty}`] };
    const when = at ? { scheduled_for: at.toISOString() } : {};
    try {
      if (edit) {
        const out = await door.run(saveDraftOp, { draft: editedFields(edit.type, edit.id, form), alts: altsOf(edit.type, form), then: intent, ...when });
        const what = out.saved ? "Your changes were saved" : "Nothing changed";
        if (out.refused) return { error: `${what}, but it was not ${DONE[intent]}: ${refusal(out.refused)}`, saved: [edit] };
        const done = out.saved && intent !== "save" && !out.done?.startsWith("publish-") ? `saved-${out.done}` : (out.done ?? "saved");
        return { saved: [edit], to: `/content/${edit.type}/${edit.id}?done=${done}` };
      }
      const drafts = [...(onLinkedIn ? [newDraft("post", form, { comment: true })] : []), ...(onX ? [newDraft("tweet", form, { comment: !onLinkedIn })] : [])];
      const out = await door.run(composeOp, { drafts, alts: altsOf(onLinkedIn && onX ? "both" : onLinkedIn ? "post" : "tweet", form), then: intent, ...when });
      const saved = out.saved.map(({ type, id }) => ({ type, id }));
      if (out.refused)
        return { error: `Saved as ${saved.length === 1 ? "a draft" : "drafts"}, but it was not ${DONE[intent]}: ${refusal(out.refused)}`, saved };
      const first = out.saved[0];
      return { saved, to: `/content/${first.type}/${first.id}?done=${first.done ?? "saved"}` };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return { error: refusal(e), fields: fieldsOf(e.details, form, { post: onLinkedIn, tweet: onX }) };
    }
  });
}

/**
 * The composer editing an unscheduled draft saves its texts as the owner pauses, as the item
 * page does (a scheduled one changes what goes out, which only a button does). Only the first
 * autosave of a visit is noted in the history.
 */
export async function autosaveComposed(form: FormData): Promise<AutosaveAnswer> {
  const expiredNow = () => ({ error: "Not saved automatically: this page has expired. Your text stays here; Save changes saves it." });
  return ownerForm<AutosaveAnswer>(form, { page: "/write", purpose: "write", expired: expiredNow }, async (door) => {
    const edit = editedDraft(form);
    if (!edit) return { error: "Not saved automatically: only a draft that exists is." };
    try {
      const draft = editedFields(edit.type, edit.id, form);
      const out = await door.run(saveDraftOp, { draft, autosave: true, ...(form.get("noted") === "1" && { alreadyNoted: true }) }, { key: undefined });
      return { shown: out.shown, updated_at: out.updated_at, at: new Date().toISOString() };
    } catch (e) {
      if (e instanceof AppError) return { error: `Not saved automatically: ${refusal(e)}` };
      throw e;
    }
  });
}
