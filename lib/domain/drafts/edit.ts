import { eq, sql } from "drizzle-orm";
import { AppError } from "@/lib/core/errors";
import type { ProposedContent } from "@/drizzle/schema";
import { changedSinceShown, spendApproval, withApproval, type ExactAction } from "../approvals/approvals";
import { attachmentsOf, contentHashOf, contentOf, type DraftContent } from "./content-hash";
import { checkMediaRefs, mediaAfter, type MediaFields } from "../media/draft-media";
import type { Ctx } from "../context";
import { chosenAccount, draftTable, label, loadOwn, type DraftType } from "./drafts";
import { accountFor } from "../accounts/accounts";
import { networkOfDraft } from "@/lib/domain/networks";
import { requirePublishing } from "../guards";
import { requireFits } from "./fit";
import { deriveTitle, iso, preview } from "./text";
import { draftUpdated } from "@/lib/domain/webhooks/domain-events";

export type UpdateDraftInput = MediaFields & {
  type: DraftType;
  id: string;
  title?: string;
  body?: string;
  hashtags?: string[];
  pillar?: string;
  first_comment?: string | null;
  account_id?: string | null;
  if_updated_at?: string;
};

type Row = Awaited<ReturnType<typeof loadOwn>>;

/** The title, text, images, document, thread and first comment the draft would have after the edit. */
function contentAfter(ctx: Ctx, input: UpdateDraftInput, d: Row, accountId: string | null | undefined): DraftContent {
  const body = input.body ?? d.body;
  // A tweet's title always follows its text.
  const title = input.title ?? (input.type === "tweet" && input.body !== undefined ? deriveTitle(body) : d.title);
  const firstComment = input.first_comment === undefined ? d.firstComment : input.first_comment;
  return {
    ...contentOf(d),
    title,
    body,
    firstComment,
    accountId: accountId === undefined ? d.accountId : accountId,
    ...mediaAfter(ctx.ports.config().origin, input.type, input, contentOf(d)),
  };
}

/** A thread's parts as they go out: the text and images of each, the first being the body. */
const partsOf = (c: DraftContent) => [{ text: c.body, image_urls: c.imageUrls }, ...(c.thread ?? []).map((p) => ({ text: p.text, image_urls: p.image_urls }))];

/**
 * Parts of a thread that already went out (a publish that stopped part way) stay as posted:
 * the draft's record must keep saying what is on the platform, and a resumed publish must
 * continue the thread that is out, so an edit may change only the parts not yet posted.
 */
function refusePostedPartsChange(d: Row, next: DraftContent) {
  const posted = d.publishProgress?.parts.length ?? 0;
  if (!posted) return;
  const before = JSON.stringify(partsOf(contentOf(d)).slice(0, posted));
  if (JSON.stringify(partsOf(next).slice(0, posted)) === before) return;
  throw new AppError(
    "action_failed",
    `Part${posted === 1 ? " 1 of this thread is" : `s 1–${posted} of this thread are`} already posted and cannot be changed here.`,
    "Change only the parts after them (publishing again continues the thread), or edit the posted tweets on X itself.",
  );
}

/**
 * The owner's approval of an edit of a scheduled draft: the edit's arguments (if_updated_at
 * only guards, it changes nothing), the current content and schedule, and the proposal shown
 * beside them. Hashtags are not part of what the platforms are sent, so they and the pillar
 * need no approval on their own; when sent with a content change they are part of its
 * arguments like any other.
 */
function editAction(input: UpdateDraftInput, d: Row, next: DraftContent): ExactAction {
  const { if_updated_at: _guard, ...args } = input;
  const proposed: ProposedContent = { title: next.title, body: next.body, image_url: next.imageUrl, attachments: attachmentsOf(next) };
  return {
    operation: "update_draft",
    args,
    type: input.type,
    id: d.id,
    ...contentOf(d),
    scheduledFor: d.scheduledFor,
    proposed,
  };
}

export async function updateDraft(ctx: Ctx, input: UpdateDraftInput) {
  return (await editDraft(ctx, input)).out;
}

/**
 * updateDraft, also giving the hash of the content it saved: the owner's page schedules or
 * publishes right after saving, and must act on that content and on nothing an app changed since.
 */
export async function editDraft(ctx: Ctx, input: UpdateDraftInput) {
  const t = draftTable(input.type);
  // Every media address must be the caller's own upload of the right kind (read before the
  // transaction: PGlite has one connection, and the transaction holds it).
  await checkMediaRefs(ctx, input.type, input);
  const accountId = input.account_id === undefined ? undefined : await chosenAccount(ctx, input.type, input.account_id);
  return withApproval(ctx, async (tx) => {
    const draft = await loadOwn(tx, ctx, input.type, input.id);
    // The owner's page saves on top of the content it showed, never over an app's newer edit.
    if (ctx.caller.inPerson && ctx.shown !== contentHashOf(draft)) throw changedSinceShown(input.type);
    if (input.if_updated_at && new Date(input.if_updated_at).getTime() !== draft.updatedAt.getTime()) {
      throw new AppError(
        "action_failed",
        `The ${label(input.type)} changed since ${input.if_updated_at} (now updated_at ${iso(draft.updatedAt)}).`,
        "Fetch it again with fetch_item, merge your change, and retry with the new updated_at.",
      );
    }
    if (draft.status === "published" || draft.status === "publishing" || draft.status === "unknown" || draft.status === "removed") {
      throw new AppError(
        "action_failed",
        `This ${label(input.type)} is ${draft.status} and can no longer be edited.`,
        draft.status === "published" ? "Create a new draft instead; edit the live post on the platform itself." : undefined,
      );
    }
    const next = contentAfter(ctx, input, draft, accountId);
    // The texts given, or every text when the account changes, within the network they go to.
    const texts = input.account_id !== undefined ? { body: next.body, thread: next.thread, first_comment: next.firstComment } : input;
    await requireFits(tx, ctx.caller.userId, input.type, next.accountId, texts);
    // A scheduled draft's account is bound (its approval named it): back to "the default" binds today's default.
    if (draft.status === "scheduled" && !next.accountId)
      next.accountId = (await accountFor(tx, ctx.caller.userId, networkOfDraft(input.type).platform, null))?.id ?? null;
    refusePostedPartsChange(draft, next);
    let approvedContentHash: string | undefined;
    if (draft.status === "scheduled") {
      // Editing a scheduled draft changes what will go out: the owner's switch must allow it,
      // and a change of its content is an action the owner approves (docs/interface.md, Confirmation, point 5).
      requirePublishing(ctx.caller, "Editing a scheduled draft");
      const nextHash = contentHashOf(next);
      if (nextHash !== contentHashOf(draft)) {
        await spendApproval(ctx, tx, editAction(input, draft, next));
        approvedContentHash = nextHash;
      }
    } else if (ctx.caller.inPerson) {
      // The owner saving it in person has seen what it now holds (confirmedBy, drafts.ts).
      approvedContentHash = contentHashOf(next);
    }
    const [row] = await tx
      .update(t)
      .set({
        title: next.title,
        body: next.body,
        imageUrl: next.imageUrl,
        imageUrls: next.imageUrls,
        ...(input.type === "post" ? { documentUrl: next.documentUrl, documentTitle: next.documentTitle } : { thread: next.thread }),
        firstComment: next.firstComment ?? null,
        accountId: next.accountId ?? null,
        ...(input.hashtags !== undefined && { hashtags: input.hashtags.map((h) => h.replace(/^#/, "")) }),
        ...(input.pillar !== undefined && { pillar: input.pillar }),
        // In the same UPDATE as the content, so the publisher never sees one without the other.
        ...(approvedContentHash !== undefined && { approvedContentHash }),
        // Strictly increasing, so if_updated_at always notices a change.
        updatedAt: sql`greatest(now(), ${t.updatedAt} + interval '1 millisecond')`,
      })
      .where(eq(t.id, draft.id))
      .returning();
    await draftUpdated(tx, ctx, input.type, row);
    const out = {
      id: row.id,
      type: input.type,
      title: row.title,
      preview: preview(row.body),
      status: row.status,
      scheduled_for: iso(row.scheduledFor),
      updated_at: row.updatedAt.toISOString(),
    };
    return { out, contentHash: contentHashOf(row) };
  });
}
