import { AppError } from "@/lib/core/errors";
import type { Ctx } from "../context";
import { describeMedia } from "../media/media";
import type { MediaFields } from "../media/draft-media";
import { requireSchedulable } from "../publishing/schedule";
import { refusalOf, takeStep, type Refusal, type Step } from "../publishing/steps";
import { contentHashOf } from "./content-hash";
import { ensureLinkCard } from "./link-card";
import { createDraft, loadOwn, type CreateDraftInput, type DraftType } from "./drafts";

// The composer's Save, Add to queue, Schedule and Publish now for what the owner just wrote:
// the drafts are created as create_draft creates them (a post, a tweet, or both, the tweet
// then being the post's "also on X"), then each is queued, scheduled or published on the
// content just saved. Whatever happens after the drafts are saved, they stay saved: a refusal
// is part of the answer, naming them, so nothing typed is lost.

/** A description the owner gave an image in the composer. */
export type Alt = { url: string; alt: string };

/**
 * Each described image's address once its description is given to it (describeMedia may make
 * a copy). Called after the input was checked whole: nothing is written for a refused form.
 */
export async function describeAll(ctx: Ctx, alts: Alt[]): Promise<(u: string) => string> {
  const out = new Map<string, string>();
  for (const m of alts) if (m.alt.trim() && !out.has(m.url)) out.set(m.url, await describeMedia(ctx, m.url, m.alt));
  return (u) => out.get(u) ?? u;
}

/** The media fields with each image's address passed through `at`. */
export function withImages<F extends MediaFields>(f: F, at: (u: string) => string): F {
  return {
    ...f,
    ...(f.image_urls && { image_urls: f.image_urls.map(at) }),
    ...(f.thread && { thread: f.thread.map((p) => (typeof p === "string" || !p.image_urls ? p : { ...p, image_urls: p.image_urls.map(at) })) }),
  };
}

export type ComposeInput = { drafts: CreateDraftInput[]; alts?: Alt[]; then: Exclude<Step, "unschedule">; scheduled_for?: string };

export type Composed = {
  /** Each draft made, with what was then done with it (queued, scheduled, published, publish-<status>), if anything. */
  saved: { type: DraftType; id: string; done?: string; scheduled_for?: string }[];
  /** Why the rest did not happen, when a step was refused after the drafts were saved. */
  refused?: Refusal;
};

export async function compose(ctx: Ctx, input: ComposeInput): Promise<Composed> {
  if (input.then === "schedule" && !input.scheduled_for) throw new AppError("invalid_request", "Choose a date and a time.");
  // A time already past is the form's mistake, refused before anything is saved (the owner fixes the time and presses again).
  if (input.then === "schedule") requireSchedulable(ctx, new Date(input.scheduled_for!));
  const saved: Composed["saved"] = [];
  try {
    const at = await describeAll(ctx, input.alts ?? []);
    // The post first: a tweet written with it hangs from it.
    for (const d of [...input.drafts].sort((a, b) => (a.type === b.type ? 0 : a.type === "post" ? -1 : 1))) {
      const parent = d.type === "tweet" ? saved.find((s) => s.type === "post") : undefined;
      const out = await createDraft(ctx, { ...withImages(d, at), ...(parent && { post_draft_id: parent.id }) });
      saved.push({ type: d.type, id: out.id });
    }
    if (input.then === "save") return { saved };
    for (const s of saved) {
      // A LinkedIn post's link card, as the composer's preview shows it, before it is approved.
      if (s.type === "post") await ensureLinkCard(ctx.db, ctx.ports, ctx.caller.userId, s.id);
      const shown = contentHashOf(await loadOwn(ctx.db, ctx, s.type, s.id));
      Object.assign(s, await takeStep({ ...ctx, shown }, { type: s.type, id: s.id }, input.then, input.scheduled_for));
    }
    return { saved };
  } catch (e) {
    if (!saved.length || !(e instanceof AppError)) throw e;
    return { saved, refused: refusalOf(e) };
  }
}
