import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { readable } from "@/lib/adapters/db/readable";
import { AppError, notFound } from "@/lib/core/errors";
import { postDrafts, postMetrics, tweetDrafts } from "@/drizzle/schema";
import type { Ctx } from "../context";
import { spendApproval, withApproval } from "../approvals/approvals";
import { contentHashOf, contentOf, type DraftContent } from "./content-hash";
import { checkMediaRefs, mediaAfter, type MediaFields } from "../media/draft-media";
import { startTopic } from "../series/series";
import { deriveTitle, iso, preview } from "./text";
import { draftCreated, draftDeleted } from "@/lib/domain/webhooks/domain-events";

import { networkOfDraft, type DraftType } from "@/lib/domain/networks";
import { accountFor } from "../accounts/accounts";
import { requireFits } from "./fit";

export type { DraftType };

// Post and tweet drafts share their columns (drizzle/schema/draft-columns.ts): queries over
// the common ones take either table.
export const draftTable = (type: DraftType): typeof postDrafts | typeof tweetDrafts => (type === "post" ? postDrafts : tweetDrafts);

export const label = (type: DraftType) => (type === "post" ? "post draft" : "tweet draft");

/** A draft of the caller, locked for the rest of the transaction, or the not-found error. */
export async function loadOwn(tx: Db, ctx: Ctx, type: DraftType, id: string) {
  const t = draftTable(type);
  const [row] = await tx
    .select(readable(t))
    .from(t)
    .where(and(eq(t.id, id), eq(t.userId, ctx.caller.userId)))
    .for("update");
  if (!row) throw notFound(label(type));
  return row;
}

export type CreateDraftInput = MediaFields & {
  type: DraftType;
  body: string;
  title?: string;
  post_draft_id?: string;
  series_topic_id?: string;
  first_comment?: string;
  account_id?: string;
};

/**
 * The hash a new draft records as confirmed: the owner writing it in person has seen all of it,
 * so a page that shows only its title (calendar, queue) may act on it; an app's draft is
 * confirmed by nobody until the owner approves or saves it.
 */
export const confirmedBy = (ctx: Ctx, c: DraftContent): string | null => (ctx.caller.inPerson ? contentHashOf(c) : null);

export async function createDraft(ctx: Ctx, input: CreateDraftInput) {
  const userId = ctx.caller.userId;
  const seriesTopicId = input.series_topic_id;
  // Every media address must be the caller's own upload: checked before anything is written.
  await checkMediaRefs(ctx, input.type, input);
  const accountId = await chosenAccount(ctx, input.type, input.account_id);
  // Within the limits of the network the draft goes to (its account's, else the default's).
  await requireFits(ctx.db, userId, input.type, accountId, input);
  const m = mediaAfter(ctx.ports.config().origin, input.type, input);
  const images = { imageUrl: m.imageUrl, imageUrls: m.imageUrls };
  return ctx.db.transaction(async (tx) => {
    // The topic must be the caller's; writing a draft for it starts it.
    if (seriesTopicId) await startTopic(tx, userId, seriesTopicId);
    if (input.type === "post") {
      const content = {
        title: input.title ?? deriveTitle(input.body),
        body: input.body,
        ...images,
        documentUrl: m.documentUrl,
        documentTitle: m.documentTitle,
        firstComment: input.first_comment ?? null,
        accountId,
      };
      const [row] = await tx
        .insert(postDrafts)
        .values({ userId, ...content, seriesTopicId, approvedContentHash: confirmedBy(ctx, content) })
        .returning();
      await draftCreated(tx, ctx, "post", row);
      return { id: row.id, type: "post" as const, title: row.title, preview: preview(row.body), linked_post_id: null };
    }
    // A tweet without a parent gets a matching parent post draft (docs/interface.md, Drafts).
    let parentId = input.post_draft_id;
    let linked: string | null = null;
    if (parentId) {
      await holdParentPost(tx, userId, parentId, "post_draft_id");
    } else {
      // The parent has the tweet's first part and images (a thread's later parts are the tweet's).
      const content = { title: deriveTitle(input.body), body: input.body, ...images };
      const [parent] = await tx
        .insert(postDrafts)
        .values({ userId, ...content, approvedContentHash: confirmedBy(ctx, content) })
        .returning({ id: postDrafts.id });
      parentId = linked = parent.id;
      await draftCreated(tx, ctx, "post", { id: parent.id, title: deriveTitle(input.body), status: "draft" });
    }
    const content = { title: deriveTitle(input.body), body: input.body, ...images, thread: m.thread, firstComment: input.first_comment ?? null, accountId };
    const [row] = await tx
      .insert(tweetDrafts)
      .values({ userId, postDraftId: parentId, ...content, seriesTopicId, approvedContentHash: confirmedBy(ctx, content) })
      .returning();
    await draftCreated(tx, ctx, "tweet", row);
    return { id: row.id, type: "tweet" as const, title: row.title, preview: preview(row.body), linked_post_id: linked };
  });
}

/** The account a caller chose for a draft, checked to be theirs and of the draft's network (else not found); null: none chosen. */
export async function chosenAccount(ctx: Ctx, type: DraftType, accountId: string | null | undefined): Promise<string | null> {
  if (!accountId) return null;
  return (await accountFor(ctx.db, ctx.caller.userId, networkOfDraft(type).platform, accountId))!.id;
}

/**
 * The user's post draft a new tweet hangs from, held (FOR KEY SHARE) until the tweet is written:
 * a delete_draft of it then waits, instead of the insert failing on the missing parent (a 500).
 */
export async function holdParentPost(tx: Db, userId: string, id: string, field: string) {
  const [parent] = await tx
    .select({ id: postDrafts.id })
    .from(postDrafts)
    .where(and(eq(postDrafts.id, id), eq(postDrafts.userId, userId)))
    .for("key share");
  if (!parent) throw notFound(`post draft (${field})`);
}

export async function deleteDraft(ctx: Ctx, input: { type: DraftType; id: string }) {
  const deleted = await withApproval(ctx, async (tx) => {
    const draft = await loadOwn(tx, ctx, input.type, input.id);
    // A post takes its tweets with it, so their states count too.
    const tweets =
      input.type === "post"
        ? await tx.select({ id: tweetDrafts.id, status: tweetDrafts.status }).from(tweetDrafts).where(eq(tweetDrafts.postDraftId, draft.id)).for("update")
        : [];
    const states = [draft.status, ...tweets.map((t) => t.status)];
    if (states.includes("publishing")) {
      throw new AppError(
        "action_failed",
        `This ${label(input.type)}${draft.status === "publishing" ? "" : " has a tweet that"} is being published right now and cannot be deleted.`,
        "Wait a minute, check its status with fetch_item, then decide again.",
      );
    }
    await spendApproval(ctx, tx, {
      operation: "delete_draft",
      // The tweets that go with a post are part of what is approved: one added (or removed)
      // since makes it another action, approved anew.
      args: { type: input.type, id: input.id, ...(tweets.length && { tweets: tweets.map((t) => t.id).sort() }) },
      type: input.type,
      id: draft.id,
      ...contentOf(draft),
      scheduledFor: draft.scheduledFor,
    });
    const t = draftTable(input.type);
    // Deleting the row cancels its schedule: the scheduler only ever claims existing rows.
    // A post's tweets go with it (ON DELETE CASCADE).
    await tx.delete(t).where(eq(t.id, draft.id));
    // Its engagement, and that of the tweets that went with it.
    const gone = [
      and(eq(postMetrics.draftType, input.type), eq(postMetrics.draftId, draft.id)),
      ...tweets.map((tw) => and(eq(postMetrics.draftType, "tweet"), eq(postMetrics.draftId, tw.id))),
    ];
    await tx.delete(postMetrics).where(and(eq(postMetrics.userId, ctx.caller.userId), or(...gone)));
    await draftDeleted(tx, ctx, input.type, draft.id, states.includes("scheduled"), draft.accountId);
    return { id: draft.id, type: input.type, deleted: true, cancelled_schedule: states.includes("scheduled") };
  });
  // Cancels a sleeping Inngest run at once (when configured); the scheduler needs nothing.
  if (deleted.cancelled_schedule) await ctx.ports.events.deleted({ type: input.type, id: input.id, userId: ctx.caller.userId });
  return deleted;
}
