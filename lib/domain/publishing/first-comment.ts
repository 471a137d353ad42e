import { and, eq, inArray, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import type { Config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { errorFacts, newErrorId, redactSecrets } from "@/lib/core/redact";
import { PublishError, platformOf } from "@/lib/domain/networks/platform";
import { commentCharge } from "../spend/x-publish";
import type { FirstCommentStatus } from "@/drizzle/schema/draft-columns";
import { draftTable, type DraftType } from "../drafts/drafts";
import { noteComment } from "../drafts/history";
import type { PublishPorts } from "./outcomes";
import { ClaimLost, Hold, sameClaim } from "./hold";

// A draft's first comment goes out once its post is published (LinkedIn: a comment on the
// post; X: a reply to the post or to its thread's last part), at most once: one conditional
// UPDATE moves it from `pending` to `posting`, and only whoever's UPDATE matched calls the
// network. Its outcome is its own: a comment that fails leaves the post published, and only
// the owner tries it again. Publishing marks it `pending` with the post's outcome, so one
// left pending by a process that stopped is posted by the next pass. Like a draft's claim
// (hold.ts), the call goes out only while the claim is surely still its caller's, and it is
// renewed while the call runs; a pass claims one comment at a time, right before its call,
// so none waits claimed behind the others' calls for the stuck sweep to take.

/** How many waiting first comments of each network one pass posts (the rest wait for the next pass). */
const PASS_LIMIT = 100;

type Row = {
  id: string;
  userId: string;
  accountId: string | null;
  text: string | null;
  postId: string | null;
  lastPartId: string | undefined;
  /** The claim's token (hold.ts). */
  claimedAt: Date | null;
};

async function claim(db: Db, type: DraftType, where: SQL | undefined, now: Date): Promise<Row | undefined> {
  const t = draftTable(type);
  const mine = and(where, eq(t.status, "published"), isNotNull(t.firstComment));
  const ids = db.select({ id: t.id }).from(t).where(mine).limit(1).for("update", { skipLocked: true });
  const [row] = await db
    .update(t)
    .set({ firstCommentStatus: "posting", firstCommentClaimedAt: now, firstCommentReason: null })
    .where(and(sql`${t.id} = any(array(${ids}))`, mine))
    .returning({
      id: t.id,
      userId: t.userId,
      accountId: t.accountId,
      text: t.firstComment,
      postId: t.platformPostId,
      progress: t.publishProgress,
      claimedAt: t.firstCommentClaimedAt,
    });
  if (!row) return undefined;
  const { progress, ...r } = row;
  return { ...r, lastPartId: progress?.parts.at(-1)?.postId };
}

/** The comment's claim as this process holds it: a renewal matches only while it is still `posting` under it. */
function holdOf(db: Db, type: DraftType, r: Row, w: PublishPorts) {
  const t = draftTable(type);
  const renew = async (now: Date) => {
    const rows = await db
      .update(t)
      .set({ firstCommentClaimedAt: now })
      .where(and(eq(t.id, r.id), eq(t.firstCommentStatus, "posting"), sameClaim(t.firstCommentClaimedAt, r.claimedAt)))
      .returning({ id: t.id });
    if (rows.length) r.claimedAt = now;
    return rows.length > 0;
  };
  return new Hold(renew, () => r.claimedAt, w.clock, w.config().PUBLISH_STUCK_SECONDS);
}

/** Calls the network for one claimed comment and records what happened. Never throws. */
async function post(db: Db, type: DraftType, r: Row, w: PublishPorts, actor: "scheduler" | "owner"): Promise<FirstCommentStatus> {
  const t = draftTable(type);
  const on = r.lastPartId ?? r.postId;
  const hold = holdOf(db, type, r, w);
  let outcome: { status: "posted"; postId: string; url: string | null } | { status: "failed" | "unknown"; reason: string; notSent?: true };
  try {
    if (!on || !r.text) throw new PublishError("failed", "the post's id on the network is not known, so there is nothing to comment on.");
    const p = await w.platforms.open(db, r.userId, platformOf(type), r.accountId);
    if (!(await hold.confirm())) throw new ClaimLost();
    const text = r.text;
    // On X it is charged as a post: under the owner's monthly cap, and recorded.
    const charge =
      type === "tweet"
        ? await commentCharge(db, { ...r, text }, w).catch((e) => {
            log("error", "the monthly cap on X could not be checked", { draft: r.id, ...errorFacts(e) });
            throw new PublishError("failed", "the monthly cap on X could not be checked, so nothing was sent to X. Post it again.");
          })
        : null;
    if (charge?.refused) throw new PublishError("failed", `${charge.refused}.`);
    const res = await hold.during(() => p.comment({ userId: r.userId, draftType: type, draftId: r.id, on, text, now: w.clock() }));
    outcome = { status: "posted", postId: res.postId, url: res.url };
    await charge?.posted();
  } catch (e) {
    if (e instanceof ClaimLost) {
      const s = w.config().PUBLISH_STUCK_SECONDS;
      outcome = {
        status: "failed",
        reason: `it was not posted: it was held up for more than ${s} seconds before its call, so it was taken for interrupted, and it stopped there.`,
        notSent: true,
      };
    } else if (e instanceof PublishError) {
      const reason = redactSecrets(e.message, 400);
      outcome =
        e.kind === "unknown" ? { status: "unknown", reason: `${reason} It may or may not have been posted: check the post.` } : { status: "failed", reason };
    } else {
      const errorId = newErrorId();
      log("error", "first comment failed unexpectedly", { errorId, draft: r.id, type, ...errorFacts(e) });
      outcome = { status: "unknown", reason: `an unexpected error stopped it (error id ${errorId}); it may or may not have been posted: check the post.` };
    }
  }
  // `unknown` too, as for posts: the stuck sweep may have given up on a call that did finish.
  // Only under this claim: the owner's own try after the sweep is another claim.
  const written = await db
    .update(t)
    .set(
      outcome.status === "posted"
        ? { firstCommentStatus: "posted", firstCommentPostId: outcome.postId, firstCommentUrl: outcome.url, firstCommentReason: null }
        : { firstCommentStatus: outcome.status, firstCommentReason: outcome.reason },
    )
    .where(and(eq(t.id, r.id), inArray(t.firstCommentStatus, ["posting", "unknown"]), sameClaim(t.firstCommentClaimedAt, r.claimedAt)))
    .returning({ id: t.id });
  // Nothing was sent and the owner has tried it since: nothing to tell.
  if (outcome.status !== "posted" && outcome.notSent && !written.length) return outcome.status;
  await noteComment(db, { userId: r.userId, type, id: r.id, ...outcome }, actor);
  log(outcome.status === "posted" ? "info" : "warn", "first comment", { draft: r.id, type, status: outcome.status });
  return outcome.status;
}

/** Right after a draft was published (publish_now, Inngest): its first comment, if it has one waiting. */
export async function postFirstComment(db: Db, type: DraftType, id: string, w: PublishPorts): Promise<void> {
  const t = draftTable(type);
  try {
    const r = await claim(db, type, and(eq(t.id, id), eq(t.firstCommentStatus, "pending")), w.clock());
    if (r) await post(db, type, r, w, "scheduler");
  } catch (e) {
    // The post is out and recorded: a comment that could not even be claimed waits for the next pass.
    log("error", "first comment not claimed", { draft: id, type, ...errorFacts(e) });
  }
}

/** A scheduler pass: every first comment waiting for its post (published in this pass or left by a stopped process). */
export async function postWaitingComments(db: Db, w: PublishPorts): Promise<number> {
  let n = 0;
  for (const type of ["post", "tweet"] as const) {
    for (let k = 0; k < PASS_LIMIT; k++) {
      // One at a time, each claimed right before its call (none waits claimed behind the others).
      const r = await claim(db, type, eq(draftTable(type).firstCommentStatus, "pending"), w.clock());
      if (!r) break;
      await post(db, type, r, w, "scheduler");
      n++;
    }
  }
  return n;
}

/**
 * The owner tries a failed or unknown first comment again, from the item page (their own
 * action: no app can). Null when there is none to try (not theirs, not published, or not
 * failed), else the new outcome.
 */
export async function retryFirstComment(db: Db, userId: string, type: DraftType, id: string, w: PublishPorts): Promise<FirstCommentStatus | null> {
  const t = draftTable(type);
  const r = await claim(db, type, and(eq(t.id, id), eq(t.userId, userId), inArray(t.firstCommentStatus, ["failed", "unknown"])), w.clock());
  return r ? post(db, type, r, w, "owner") : null;
}

/**
 * First comments left `posting` by a process that died become `unknown` (never posted again
 * by themselves: the call may have reached the network). Part of the scheduler's sweep.
 */
export async function sweepStuckComments(db: Db, now: Date, c: Config): Promise<number> {
  const before = new Date(now.getTime() - c.PUBLISH_STUCK_SECONDS * 1000);
  let n = 0;
  for (const type of ["post", "tweet"] as const) {
    const t = draftTable(type);
    const reason =
      `posting was interrupted (no answer recorded within ${c.PUBLISH_STUCK_SECONDS} seconds); ` + "it may or may not have been posted: check the post.";
    const rows = await db
      .update(t)
      .set({ firstCommentStatus: "unknown", firstCommentReason: reason })
      .where(and(eq(t.firstCommentStatus, "posting"), lt(t.firstCommentClaimedAt, before)))
      .returning({ id: t.id, userId: t.userId });
    for (const r of rows) await noteComment(db, { userId: r.userId, type, id: r.id, status: "unknown", reason }, "scheduler");
    n += rows.length;
  }
  return n;
}
