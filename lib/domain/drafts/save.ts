import { AppError } from "@/lib/core/errors";
import { changedSinceShown } from "../approvals/approvals";
import type { Ctx } from "../context";
import { refusalOf, takeStep, type Refusal, type Step } from "../publishing/steps";
import { describeAll, withImages, type Alt } from "./compose";
import { confirmShown } from "./confirmed";
import { contentHashOf, contentOf } from "./content-hash";
import { loadOwn, type DraftType } from "./drafts";
import { editDraft, type UpdateDraftInput } from "./edit";

// The owner saving a draft that exists, from its item page or the composer, then doing what
// the pressed button says with the content just saved. The page sends the draft as it shows it
// now; only what differs from the stored draft is saved, as update_draft saves an app's edit,
// and only on top of the content the page showed (Ctx.shown).

export type SaveInput = UpdateDraftInput & {
  alts?: Alt[];
  then?: Step;
  scheduled_for?: string;
  /** Saved as the owner pauses: an unscheduled draft's texts only (files, descriptions and the account wait for a button). */
  autosave?: boolean;
  /** An autosave after the first of a visit: the history already has the edit. */
  alreadyNoted?: boolean;
};

export type Saved = {
  saved: boolean;
  /** The fields that changed and were saved. */
  fields: string[];
  updated_at: string;
  /** The hash of the content now stored: what the page shows next. */
  shown: string;
  done?: string;
  scheduled_for?: string;
  previous_scheduled_for?: string | null;
  refused?: Refusal;
};

/** What autosave may change: the texts. */
const TEXTS = ["title", "body", "thread", "first_comment"];

type Row = Awaited<ReturnType<typeof loadOwn>>;

/** Each field the page sent, as the stored draft has it now (thread parts with their images). */
function stored(d: Row, k: string): unknown {
  const c = contentOf(d);
  const now: Record<string, unknown> = {
    title: c.title,
    body: c.body,
    image_urls: c.imageUrls,
    document_url: c.documentUrl,
    document_title: c.documentTitle,
    thread: (c.thread ?? []).map((p) => ({ text: p.text, image_urls: p.image_urls ?? [] })),
    first_comment: c.firstComment,
    account_id: c.accountId,
  };
  return now[k];
}

const sent = (k: string, v: unknown) =>
  k === "thread"
    ? (v as (string | { text: string; image_urls?: string[] })[]).map((p) =>
        typeof p === "string" ? { text: p, image_urls: [] } : { text: p.text, image_urls: p.image_urls ?? [] },
      )
    : v === undefined
      ? undefined
      : (v ?? null);

const FIELDS = ["title", "body", "image_urls", "document_url", "document_title", "thread", "first_comment", "account_id"] as const;

export async function saveDraft(ctx: Ctx, input: SaveInput): Promise<Saved> {
  const { type, id } = input;
  const d = await loadOwn(ctx.db, ctx, type, id);
  if (input.autosave && d.status !== "draft") throw new AppError("action_failed", "It is no longer an unscheduled draft: use the buttons.");
  if (contentHashOf(d) !== ctx.shown) throw changedSinceShown(type);
  const at = input.autosave ? (u: string) => u : await describeAll(ctx, input.alts ?? []);
  const next = withImages(input, at) as Record<string, unknown>;
  const changed = FIELDS.filter((k) => next[k] !== undefined && JSON.stringify(sent(k, next[k])) !== JSON.stringify(stored(d, k)));
  const images = (t: unknown) => JSON.stringify((t as { image_urls?: string[] }[] | undefined)?.map((p) => p.image_urls ?? []) ?? []);
  if (
    input.autosave &&
    (changed.some((k) => !TEXTS.includes(k)) || (changed.includes("thread") && images(sent("thread", next.thread)) !== images(stored(d, "thread"))))
  )
    throw new AppError("invalid_request", "Only text is saved automatically: press Save changes to save files, descriptions or the account.");
  const base: Saved = { saved: false, fields: changed, updated_at: d.updatedAt.toISOString(), shown: ctx.shown! };
  if (changed.length) {
    const edit = { type, id, if_updated_at: input.if_updated_at ?? d.updatedAt.toISOString(), ...Object.fromEntries(changed.map((k) => [k, next[k]])) };
    const { out, contentHash } = await editDraft(ctx, edit as UpdateDraftInput);
    Object.assign(base, { saved: true, updated_at: out.updated_at, shown: contentHash });
  } else if (!input.autosave && (!input.then || input.then === "save")) {
    // Save pressed on what the page shows, unchanged: the owner has read it (confirmed.ts).
    await confirmShown(ctx, type, id);
  }
  if (!input.then || input.then === "save") return base;
  try {
    return { ...base, ...(await takeStep({ ...ctx, shown: base.shown }, { type, id }, input.then, input.scheduled_for)) };
  } catch (e) {
    if (!base.saved || !(e instanceof AppError)) throw e;
    return { ...base, refused: refusalOf(e) };
  }
}

export type { DraftType };
