import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError, invalid } from "@/lib/core/errors";
import { approvals, postDrafts, tweetDrafts } from "@/drizzle/schema";
import type { Caller, Ctx } from "../context";
import type { Ports } from "../ports";
import { draftTable, label, loadOwn, type DraftType } from "../drafts/drafts";
import { noteByCaller } from "../drafts/history";
import { cardNote, usableCard } from "../drafts/link-card";
import { contentHashOf } from "../drafts/content-hash";
import { fetchItem } from "../drafts/items";
import { isUuid } from "@/lib/core/ids";
import type { getProfile } from "./onboarding";
import { holdTopic, markTopicPublished } from "../series/series";
import { publishOutcomes } from "@/lib/domain/webhooks/domain-events";
import { inboxCount } from "../approvals/inbox";
import { waitingRequests } from "../accounts/connections";

// The owner acting in the owner's pages. Their actions run the same domain functions as the
// API with the owner as caller; `inPerson` says the page itself confirmed the action.

type Profile = NonNullable<Awaited<ReturnType<typeof getProfile>>> & { id: string };

/** The owner in person as a caller: only after the session (and, for a change, CSRF) was checked. */
export function ownerCaller(me: Profile): Caller {
  return {
    userId: me.id,
    email: me.email,
    name: me.name,
    image: null,
    plan: me.plan,
    accountComplete: !!me.accountCompletedAt,
    timezone: me.timezone,
    publishingAllowed: me.publishingAllowed,
    appId: "",
    appName: "you",
    scopes: [],
    inPerson: true,
  };
}

/**
 * For pages that checked the session, to read through the domain functions (their changes go
 * through the one door: lib/transports/owner). They run outside any API request, so they hand
 * in the process's ports themselves.
 */
export function ownerContext(db: Db, me: Profile, p: Ports): Ctx {
  return { db, now: p.clock, ports: p, requestId: `owner:${crypto.randomUUID()}`, caller: ownerCaller(me) };
}

/** Drafts an app is waiting for the owner's approval on (pending and unexpired). */
export async function draftsAwaitingApproval(db: Db, userId: string, now = new Date()): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: sql<string>`${approvals.action}->>'id'` })
    .from(approvals)
    .where(and(waitingRequests(userId, now), inArray(sql`${approvals.action}->>'type'`, ["post", "tweet"])));
  return rows.map((r) => r.id);
}

/** What the "Needs attention" banner counts: failed and unknown drafts, and requests waiting for approval. */
export async function attention(db: Db, userId: string, now = new Date()) {
  const count = async (t: typeof postDrafts | typeof tweetDrafts, status: "failed" | "unknown") =>
    (
      await db
        .select({ n: sql<number>`count(*)::int` })
        .from(t)
        .where(and(eq(t.userId, userId), eq(t.status, status)))
    )[0].n;
  const [pf, tf, pu, tu, waiting] = await Promise.all([
    count(postDrafts, "failed"),
    count(tweetDrafts, "failed"),
    count(postDrafts, "unknown"),
    count(tweetDrafts, "unknown"),
    inboxCount(db, userId, now),
  ]);
  return { failed: pf + tf, unknown: pu + tu, waiting, total: pf + tf + pu + tu + waiting };
}

/** A link the owner pasted for a post that went out: http(s) only, never `javascript:`. */
function postLink(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw invalid([{ path: "url", message: "Paste the full link of the post, starting with https://" }]);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw invalid([{ path: "url", message: "Paste the full link of the post, starting with https://" }]);
  return u.toString();
}

/**
 * The owner settles a draft whose outcome is `unknown` after checking the platform: it went
 * out (published, with the link they pasted) or it did not (failed: it can be published
 * again). Only the owner in person: an app cannot know, so no operation offers this.
 */
export async function resolveUnknown(ctx: Ctx, input: { type: DraftType; id: string } & ({ posted: true; url: string } | { posted: false })) {
  if (!ctx.caller.inPerson) throw new AppError("action_failed", "Only the account owner, in the owner's pages, can settle an unconfirmed post.");
  const url = input.posted ? postLink(input.url) : null;
  const t = draftTable(input.type);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    // The series and topic before the draft, as manage_series takes them (series.ts).
    const [linked] = isUuid(input.id)
      ? await tx
          .select({ topic: t.seriesTopicId })
          .from(t)
          .where(and(eq(t.id, input.id), eq(t.userId, ctx.caller.userId)))
      : [];
    if (url && linked?.topic) await holdTopic(tx, linked.topic);
    const d = await loadOwn(tx, ctx, input.type, input.id);
    if (d.status !== "unknown") {
      throw new AppError("action_failed", `This ${label(input.type)} is ${d.status}, not waiting to be confirmed, so nothing changed.`);
    }
    if (url) {
      // The platform's id is the link's last segment (X: /status/{id}; LinkedIn: the URN).
      const postId = new URL(url).pathname.split("/").filter(Boolean).pop() ?? url;
      await tx
        .update(t)
        .set({
          status: "published",
          publishedAt: now,
          platformUrl: url,
          platformPostId: postId,
          nextAttemptAt: null,
          updatedAt: sql`greatest(now(), ${t.updatedAt} + interval '1 millisecond')`,
        })
        .where(and(eq(t.id, d.id), eq(t.status, "unknown")));
      if (d.seriesTopicId) await markTopicPublished(tx, d.seriesTopicId, input.type === "post" ? "pronet" : "micro", postId);
    } else {
      await tx
        .update(t)
        .set({
          status: "failed",
          failureReason: `you checked ${input.type === "post" ? "LinkedIn" : "X"} and it did not go out`,
          nextAttemptAt: null,
          updatedAt: sql`greatest(now(), ${t.updatedAt} + interval '1 millisecond')`,
        })
        .where(and(eq(t.id, d.id), eq(t.status, "unknown")));
    }
    await publishOutcomes(
      tx,
      [{ userId: ctx.caller.userId, type: input.type, id: d.id, status: url ? "published" : "failed", url, reason: "the owner checked and it did not go out" }],
      now,
    );
  });
  await noteByCaller(ctx, { type: input.type, id: input.id, kind: input.posted ? "resolved_published" : "resolved_failed", detail: { url } });
}

/** The other network's side of a draft: a post's tweets, or a tweet's post (the composer writes both as one). */
export async function linkedDrafts(ctx: Ctx, type: DraftType, id: string, postDraftId: string | null) {
  const mine = (t: typeof postDrafts | typeof tweetDrafts) => eq(t.userId, ctx.caller.userId);
  if (type === "post")
    return (
      await ctx.db
        .select({ id: tweetDrafts.id, title: tweetDrafts.title, status: tweetDrafts.status })
        .from(tweetDrafts)
        .where(and(eq(tweetDrafts.postDraftId, id), mine(tweetDrafts)))
        .orderBy(tweetDrafts.createdAt)
    ).map((r) => ({ type: "tweet" as const, ...r }));
  if (!postDraftId) return [];
  return (
    await ctx.db
      .select({ id: postDrafts.id, title: postDrafts.title, status: postDrafts.status })
      .from(postDrafts)
      .where(and(eq(postDrafts.id, postDraftId), mine(postDrafts)))
  ).map((r) => ({ type: "post" as const, ...r }));
}

/** A draft for its item page: fetch_item's view and its publishing record; null if not theirs. */
export async function ownerDraft(ctx: Ctx, type: DraftType, id: string) {
  if (!isUuid(id)) return null;
  const t = draftTable(type);
  const [row] = await ctx.db
    .select()
    .from(t)
    .where(and(eq(t.id, id), eq(t.userId, ctx.caller.userId)));
  if (!row) return null;
  const { publishedAt, platformUrl, failureReason, claimedAt, createdAt } = row;
  const record = { publishedAt, platformUrl, failureReason, claimedAt, createdAt, postDraftId: "postDraftId" in row ? row.postDraftId : null };
  // The hash of what the page shows, which its publish, schedule and delete forms carry
  // (Ctx.shown). Read before the item the page shows: if an app edits the draft in between,
  // the page shows the newer content with the older hash, and the owner's action is refused
  // rather than applied to content the page did not show.
  const shown = contentHashOf(row);
  const item = await fetchItem(ctx, { type, id });
  // A LinkedIn post's link card as it goes out (null: none), and what to say of it.
  const card = "linkCard" in row ? { usable: usableCard(row), note: cardNote(row) } : null;
  return { item, record, shown, card };
}
