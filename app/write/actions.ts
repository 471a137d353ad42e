"use server";
import { ownerActionContext } from "@/lib/transports/auth/owner-action";
import { refusal } from "@/lib/transports/auth/form-errors";
import { AppError } from "@/lib/core/errors";
import { createDraft, loadOwn, type DraftType } from "@/lib/domain/drafts/drafts";
import { contentHashOf } from "@/lib/domain/drafts/content-hash";
import { noteScheduled } from "@/lib/domain/drafts/history";
import { publishNow, scheduleContent } from "@/lib/domain/publishing/schedule";
import type { Ctx } from "@/lib/domain/context";
import { parseInput } from "@/lib/operations/execute";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { zonedToUtc } from "@/components/format";
import { described, field, mediaFields, sentMedia, sentParts } from "./form";
import { editedDraft, saveComposed } from "./edit";

// The composer's one form (composer.tsx): what was written for each network, and the button
// pressed. New drafts are created as create_draft creates them (its schema, the same domain
// function); a draft being edited is saved as update_draft saves it (edit.ts). Then they are
// queued, scheduled or published as the item page does it, the owner in person: their own
// page is the confirmation. Whatever happens after the drafts are saved, they stay saved: a
// refusal says so and names them, and nothing typed is lost.

export type ComposeState = { error?: string; saved?: { type: DraftType; id: string }[]; to?: string } | null;

type Intent = "save" | "queue" | "schedule" | "publish";
const DONE: Record<Intent, string> = { save: "saved", queue: "queued", schedule: "scheduled", publish: "published" };

/** A saved draft, with the hash of the content its next step acts on. */
type Saved = { type: DraftType; id: string; shown: string };

export async function composeAction(_prev: ComposeState, form: FormData): Promise<ComposeState> {
  const owner = await ownerActionContext<ComposeState>(form, {
    page: "/write",
    purpose: "write",
    expired: () => ({ error: "This page had expired, so nothing was saved. Your text is kept: press the button again." }),
  });
  if ("answer" in owner) return owner.answer;
  const { ctx } = owner;

  const intent = (["save", "queue", "schedule", "publish"] as const).find((i) => i === form.get("intent")) ?? "save";
  const edit = editedDraft(form);
  // An edit is of the one draft it opened; a new one goes where it was ticked.
  const onLinkedIn = edit ? edit.type === "post" : form.get("to_post") === "on";
  const onX = edit ? edit.type === "tweet" : form.get("to_tweet") === "on";
  if (!onLinkedIn && !onX) return { error: "Choose where it goes: LinkedIn, X or both." };
  const at = intent === "schedule" ? zonedToUtc(field(form, "date"), field(form, "time"), ctx.caller.timezone) : null;
  if (intent === "schedule" && !at) return { error: "Choose a date and a time." };
  const thread = sentParts(form);
  const orUntick = edit ? "." : ", or untick where it goes.";
  if (onLinkedIn && !field(form, "post_body").trim()) return { error: `Write the post's text${orUntick}` };
  if (onX && !thread[0]?.trim()) return { error: `Write the tweet's text${orUntick}` };
  const empty = thread.findIndex((p) => !p.trim());
  if (onX && empty > 0) return { error: `Part ${empty + 1} of the thread is empty: write it or remove it.` };

  const saved: Saved[] = [];
  let changed = true;
  try {
    if (edit) {
      const out = await saveComposed(ctx, edit.type, edit.id, form);
      saved.push({ ...edit, shown: out.shown });
      changed = out.saved;
    } else await createComposed(ctx, form, { onLinkedIn, onX, thread }, saved);
    for (const s of saved) {
      if (intent === "save") break;
      const as = { ...ctx, shown: s.shown };
      if (intent === "publish") await publishNow(as, { type: s.type, id: s.id });
      else {
        const out = await scheduleContent(as, {
          type: s.type,
          id: s.id,
          ...(intent === "queue" ? { slot: "next" as const } : { scheduled_for: at!.toISOString() }),
        });
        await noteScheduled(as, s.type, s.id, out.scheduled_for);
      }
    }
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (!saved.length) return { error: refusal(e) };
    const what = edit ? (changed ? "Your changes were saved" : "Nothing changed") : `Saved as ${saved.length === 1 ? "a draft" : "drafts"}`;
    return { error: `${what}, but it was not ${DONE[intent]}: ${refusal(e)}`, saved: saved.map(({ type, id }) => ({ type, id })) };
  }
  const first = saved[0];
  const done = edit && changed && intent !== "save" ? `saved-${DONE[intent]}` : DONE[intent];
  return { saved: saved.map(({ type, id }) => ({ type, id })), to: `/content/${first.type}/${first.id}?done=${done}` };
}

/** Makes the new drafts as create_draft does, each added to `saved`: the post, then the tweet as its "also on X". */
async function createComposed(ctx: Ctx, form: FormData, o: { onLinkedIn: boolean; onX: boolean; thread: string[] }, saved: Saved[]) {
  const comment = field(form, "first_comment").trim();
  const account = (k: string) => field(form, k) || undefined;
  const media = sentMedia(form);
  // create_draft's inputs, each file's address passed through `at`.
  const inputsWith = (at: (u: string) => string) => {
    const inputs: { type: DraftType; input: ReturnType<typeof parseInput> }[] = [];
    if (o.onLinkedIn) {
      const body = field(form, "post_body").replace(/\r\n/g, "\n");
      inputs.push({
        type: "post",
        input: parseInput(createDraftOp, {
          type: "post",
          body,
          account_id: account("post_account"),
          ...mediaFields("post", media.post, at),
          ...(comment && { first_comment: comment }),
        }),
      });
    }
    if (o.onX) {
      const [first, ...rest] = o.thread;
      const partImages = (i: number) => mediaFields("tweet", media.parts[i] ?? [], at).image_urls;
      inputs.push({
        type: "tweet",
        input: parseInput(createDraftOp, {
          type: "tweet",
          body: first ?? "",
          ...mediaFields("tweet", media.parts[0] ?? [], at),
          ...(rest.length && { thread: rest.map((text, i) => (partImages(i + 1) ? { text, image_urls: partImages(i + 1) } : text)) }),
          account_id: account("tweet_account"),
          ...(comment && !o.onLinkedIn && { first_comment: comment }),
        }),
      });
    }
    return inputs;
  };

  // Checked (as create_draft checks a body) before anything is written; then each image gets
  // its description, which may give it a new address (describeMedia).
  inputsWith((u) => u);
  const inputs = inputsWith(await described(ctx, [...(o.onLinkedIn ? media.post : []), ...(o.onX ? media.parts.flat() : [])]));
  for (const { type, input } of inputs) {
    // Both: the tweet is the post's, shown with it ("also on X").
    const parent = type === "tweet" ? saved.find((s) => s.type === "post") : undefined;
    const out = await createDraft(ctx, { ...(input as Parameters<typeof createDraft>[1]), ...(parent && { post_draft_id: parent.id }) });
    saved.push({ type, id: out.id, shown: contentHashOf(await loadOwn(ctx.db, ctx, type, out.id)) });
  }
}

export type AutosaveState = { error?: string; shown?: string; updated_at?: string; at?: string } | null;

/**
 * The composer editing an unscheduled draft saves its texts as the owner pauses, as the item
 * page does (a scheduled one changes what goes out, which only a button does). Only the first
 * autosave of a visit is noted in the history.
 */
export async function autosaveComposed(form: FormData): Promise<AutosaveState> {
  const owner = await ownerActionContext<AutosaveState>(form, {
    page: "/write",
    purpose: "write",
    expired: () => ({ error: "Not saved automatically: this page has expired. Your text stays here; Save changes saves it." }),
  });
  if ("answer" in owner) return owner.answer;
  const { ctx } = owner;
  const edit = editedDraft(form);
  if (!edit) return { error: "Not saved automatically: only a draft that exists is." };
  try {
    const { shown, updatedAt } = await saveComposed(ctx, edit.type, edit.id, form, { textOnly: true, note: form.get("noted") !== "1" });
    return { shown, updated_at: updatedAt, at: new Date().toISOString() };
  } catch (e) {
    if (e instanceof AppError) return { error: `Not saved automatically: ${refusal(e)}` };
    throw e;
  }
}
