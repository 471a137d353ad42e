"use server";
import { redirect } from "next/navigation";
import { ownerAction } from "@/lib/transports/auth/owner-action";
import { refusal } from "@/lib/transports/auth/form-errors";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { AppError } from "@/lib/core/errors";
import { createDraft, loadOwn, type DraftType } from "@/lib/domain/drafts/drafts";
import { contentHashOf } from "@/lib/domain/drafts/content-hash";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerContext } from "@/lib/domain/owner/owner";
import { noteScheduled } from "@/lib/domain/drafts/history";
import { publishNow, scheduleContent } from "@/lib/domain/publishing/schedule";
import type { Ctx } from "@/lib/domain/context";
import { parseInput } from "@/lib/operations/execute";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { zonedToUtc } from "@/components/format";
import { describeMedia } from "@/lib/domain/media/media";

// The composer's one form (composer.tsx): what was written for each network, and the button
// pressed. The drafts are created as create_draft creates them (its schema, the same domain
// function), then queued, scheduled or published as the item page does it, the owner in
// person: their own page is the confirmation. Whatever happens after the drafts exist, they
// are saved: a refusal says so and names them, and nothing typed is lost.

export type ComposeState = { error?: string; saved?: { type: DraftType; id: string }[]; to?: string } | null;

type Intent = "save" | "queue" | "schedule" | "publish";
const DONE: Record<Intent, string> = { save: "saved", queue: "queued", schedule: "scheduled", publish: "published" };

const field = (form: FormData, k: string) => String(form.get(k) ?? "");

type Sent = { url: string; alt: string; pdf?: boolean; title?: string };
const isSent = (m: unknown): m is Sent => !!m && typeof (m as Sent).url === "string" && typeof (m as Sent).alt === "string";

/** The files as the composer sent them (media.tsx): the post's, and each thread part's. */
function sentMedia(form: FormData): { post: Sent[]; parts: Sent[][] } {
  try {
    const v = JSON.parse(field(form, "media"));
    const list = (l: unknown) => (Array.isArray(l) ? l.filter(isSent) : []);
    return { post: list(v?.post), parts: Array.isArray(v?.parts) ? v.parts.map(list) : [] };
  } catch {
    return { post: [], parts: [] };
  }
}

/** The media fields of create_draft for these files, each address passed through `at`. */
function mediaFields(type: DraftType, files: Sent[], at: (u: string) => string) {
  const doc = type === "post" ? files.find((m) => m.pdf) : undefined;
  if (doc) return { document_url: at(doc.url), ...(doc.title?.trim() && { document_title: doc.title.trim() }) };
  const images = files.filter((m) => !m.pdf).map((m) => at(m.url));
  return images.length ? { image_urls: images } : {};
}

/** The thread's parts as the composer sent them: a JSON list of strings, else none. */
function parts(form: FormData): string[] {
  try {
    const v = JSON.parse(field(form, "thread"));
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === "string").map((p) => p.replace(/\r\n/g, "\n")) : [];
  } catch {
    return [];
  }
}

export async function composeAction(_prev: ComposeState, form: FormData): Promise<ComposeState> {
  const ctx = await ownerAction<Ctx | ComposeState>(
    form,
    { page: "/write", purpose: "write", expired: () => ({ error: "This page had expired, so nothing was saved. Your text is kept: press the button again." }) },
    async (userId) => {
      const profile = await getProfile(await db(), userId);
      if (!profile) redirect("/signin");
      return ownerContext(await db(), { id: userId, ...profile }, ports());
    },
  );
  if (!ctx || !("caller" in ctx)) return ctx as ComposeState;

  const intent = (["save", "queue", "schedule", "publish"] as const).find((i) => i === form.get("intent")) ?? "save";
  const onLinkedIn = form.get("to_post") === "on";
  const onX = form.get("to_tweet") === "on";
  if (!onLinkedIn && !onX) return { error: "Choose where it goes: LinkedIn, X or both." };
  const at = intent === "schedule" ? zonedToUtc(field(form, "date"), field(form, "time"), ctx.caller.timezone) : null;
  if (intent === "schedule" && !at) return { error: "Choose a date and a time." };
  const thread = parts(form);
  if (onLinkedIn && !field(form, "post_body").trim()) return { error: "Write the post's text, or untick where it goes." };
  if (onX && !thread[0]?.trim()) return { error: "Write the tweet's text, or untick where it goes." };
  const empty = thread.findIndex((p) => !p.trim());
  if (onX && empty > 0) return { error: `Part ${empty + 1} of the thread is empty: write it or remove it.` };
  const comment = field(form, "first_comment").trim();
  const account = (k: string) => field(form, k) || undefined;

  const media = sentMedia(form);
  // create_draft's inputs, each file's address passed through `at`.
  const inputsWith = (at: (u: string) => string) => {
    const inputs: { type: DraftType; input: ReturnType<typeof parseInput> }[] = [];
    if (onLinkedIn) {
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
    if (onX) {
      const [first, ...rest] = thread;
      const partImages = (i: number) => mediaFields("tweet", media.parts[i] ?? [], at).image_urls;
      inputs.push({
        type: "tweet",
        input: parseInput(createDraftOp, {
          type: "tweet",
          body: first ?? "",
          ...mediaFields("tweet", media.parts[0] ?? [], at),
          ...(rest.length && { thread: rest.map((text, i) => (partImages(i + 1) ? { text, image_urls: partImages(i + 1) } : text)) }),
          account_id: account("tweet_account"),
          ...(comment && !onLinkedIn && { first_comment: comment }),
        }),
      });
    }
    return inputs;
  };

  // Checked (as create_draft checks a body) before anything is written; then each image gets
  // its description, which may give it a new address (describeMedia).
  let inputs: ReturnType<typeof inputsWith>;
  try {
    inputsWith((u) => u);
    const described = new Map<string, string>();
    for (const m of [...(onLinkedIn ? media.post : []), ...(onX ? media.parts.flat() : [])])
      if (!m.pdf && m.alt.trim()) described.set(m.url, await describeMedia(ctx, m.url, m.alt));
    inputs = inputsWith((u) => described.get(u) ?? u);
  } catch (e) {
    if (e instanceof AppError) return { error: refusal(e) };
    throw e;
  }

  const saved: { type: DraftType; id: string }[] = [];
  try {
    for (const { type, input } of inputs) {
      // Both: the tweet is the post's, shown with it ("also on X").
      const parent = type === "tweet" ? saved.find((s) => s.type === "post") : undefined;
      const out = await createDraft(ctx, { ...(input as Parameters<typeof createDraft>[1]), ...(parent && { post_draft_id: parent.id }) });
      saved.push({ type, id: out.id });
    }
    for (const s of saved) {
      if (intent === "save") break;
      const shown = contentHashOf(await loadOwn(ctx.db, ctx, s.type, s.id));
      const as = { ...ctx, shown };
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
    return { error: `Saved as ${saved.length === 1 ? "a draft" : "drafts"}, but not ${DONE[intent]}: ${refusal(e)}`, saved };
  }
  const first = saved[0];
  return { saved, to: `/content/${first.type}/${first.id}?done=${intent === "save" ? "saved" : DONE[intent]}` };
}
