import { AppError, notFound } from "@/lib/core/errors";
import { changedSinceShown } from "@/lib/domain/approvals/approvals";
import type { Ctx } from "@/lib/domain/context";
import type { DraftType } from "@/lib/domain/drafts/drafts";
import { editDraft } from "@/lib/domain/drafts/edit";
import { noteByCaller } from "@/lib/domain/drafts/history";
import { ownerDraft } from "@/lib/domain/owner/owner";
import { parseInput } from "@/lib/operations/execute";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { described, field, mediaFields, sentMedia, sentParts } from "./form";

// The composer editing a draft that exists (the item page's Edit): what it sends is saved as
// update_draft saves an app's edit (its schema, the same domain function), the owner in person,
// on top of the content the page showed, and only what changed.

/** The draft the composer edits ("post:<id>" or "tweet:<id>"), or null for a new one. */
export function editedDraft(form: FormData): { type: DraftType; id: string } | null {
  const m = /^(post|tweet):(.+)$/.exec(field(form, "edit"));
  return m ? { type: m[1] as DraftType, id: m[2] } : null;
}

/** The fields of fetch_item's answer the composer shows and saves. */
export type ComposedItem = {
  body?: string | null;
  image_urls?: string[];
  document_url?: string | null;
  document_title?: string | null;
  thread?: { text: string; image_urls?: string[] }[];
  first_comment?: string | null;
};

/** update_draft's content fields for what the composer sent, each image's address through `at`. */
function fieldsOf(type: DraftType, form: FormData, at: (u: string) => string) {
  const media = sentMedia(form);
  const comment = field(form, "first_comment").trim() || null;
  if (type === "post") {
    const m = mediaFields("post", media.post, at);
    return {
      body: field(form, "post_body").replace(/\r\n/g, "\n"),
      image_urls: m.image_urls ?? [],
      document_url: m.document_url ?? null,
      document_title: m.document_title ?? null,
      first_comment: comment,
    };
  }
  const [first, ...rest] = sentParts(form);
  const images = (i: number) => mediaFields("tweet", media.parts[i] ?? [], at).image_urls ?? [];
  return {
    body: first ?? "",
    image_urls: images(0),
    thread: rest.map((text, i) => ({ text, image_urls: images(i + 1) })),
    first_comment: comment,
  };
}

/** The same fields as the draft has them now. */
const fieldsNow = (type: DraftType, item: ComposedItem) => ({
  body: item.body ?? "",
  image_urls: item.image_urls ?? [],
  ...(type === "post"
    ? { document_url: item.document_url ?? null, document_title: item.document_title ?? null }
    : { thread: (item.thread ?? []).map((p) => ({ text: p.text, image_urls: p.image_urls ?? [] })) }),
  first_comment: item.first_comment ?? null,
});

/** The fields an autosave may change: the texts, never files, their descriptions or the account. */
const TEXTS = ["body", "thread", "first_comment"];

/**
 * Saves what the composer sent for draft `id`, if anything changed, and gives the hash of the
 * content the pressed action may then act on. Checked whole before anything is written (an
 * image's description may write a copy of it). `textOnly` (an autosave) saves texts alone:
 * a description given at every pause would leave a copy of the image each time.
 */
export async function saveComposed(
  ctx: Ctx,
  type: DraftType,
  id: string,
  form: FormData,
  o: { textOnly?: boolean; note?: boolean } = {},
): Promise<{ saved: boolean; shown: string; updatedAt: string }> {
  const found = await ownerDraft(ctx, type, id);
  if (!found) throw notFound(type);
  const item = found.item as ComposedItem & { status: string; updated_at: string };
  // A scheduled draft changes what goes out, which only a button does.
  if (o.textOnly && item.status !== "draft") throw new AppError("action_failed", "It is no longer an unscheduled draft: use the buttons.");
  const shown = field(form, "shown");
  if (found.shown !== shown) throw changedSinceShown(type);
  const account = field(form, `${type}_account`);
  // Only a changed choice: the default account and "the default" are different things to a draft.
  const accountField = account !== field(form, "account_was") ? { account_id: account || null } : {};
  const guard = { type, id, if_updated_at: field(form, "updated_at") || undefined };
  parseInput(updateDraftOp, { ...guard, ...fieldsOf(type, form, (u) => u), ...accountField });

  const media = sentMedia(form);
  const at = o.textOnly ? (u: string) => u : await described(ctx, type === "post" ? media.post : media.parts.flat());
  const next: Record<string, unknown> = fieldsOf(type, form, at);
  const now: Record<string, unknown> = fieldsNow(type, item);
  const changed = Object.keys(next).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(now[k]));
  const images = (t: unknown) => JSON.stringify((t as { image_urls: string[] }[]).map((p) => p.image_urls));
  if (
    o.textOnly &&
    (changed.some((k) => !TEXTS.includes(k)) || "account_id" in accountField || (type === "tweet" && images(next.thread) !== images(now.thread)))
  )
    throw new AppError("invalid_request", "Only text is saved automatically: press Save changes to save files, descriptions or the account.");
  if (!changed.length && !("account_id" in accountField)) return { saved: false, shown, updatedAt: item.updated_at };
  const input = parseInput(updateDraftOp, { ...guard, ...Object.fromEntries(changed.map((k) => [k, next[k]])), ...accountField });
  // The page's hash too: an edit of a scheduled draft is the owner's approval of the new content.
  const { out, contentHash } = await editDraft({ ...ctx, shown }, input as Parameters<typeof editDraft>[1]);
  if (o.note !== false) await noteByCaller(ctx, { type, id, kind: "edited", detail: { fields: [...changed, ...Object.keys(accountField)].join(", ") } });
  return { saved: true, shown: contentHash, updatedAt: out.updated_at };
}
