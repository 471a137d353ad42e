import { and, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import { momentOf } from "@/lib/adapters/db/rows";
import { log } from "@/lib/core/log";
import { errorFacts, newErrorId, redactSecrets } from "@/lib/core/redact";
import { DuplicateRefusal, PublishError, platformOf, type Platform, type PlatformName } from "@/lib/domain/networks/platform";
import { network } from "@/lib/domain/networks";
import { formatInZone } from "@/lib/core/time";
import { postDrafts, tweetDrafts, users } from "@/drizzle/schema";
import { contentChangedReason } from "../drafts/content-hash";
import { draftTable, type DraftType } from "../drafts/drafts";
import { noteAttempts, triedBefore } from "../drafts/history";
import type { AttemptOutcome, Claimed, Outcome, PublishPorts } from "./outcomes";
import type { FirstCommentStatus } from "@/drizzle/schema/draft-columns";
import { postFirstComment, sweepStuckComments } from "./first-comment";
import { ClaimLost, Hold, sameClaim } from "./hold";

export type { Claimed, Outcome, PublishPorts };
import { publishRequest } from "./request";
import { holdTopic, markTopicPublished } from "../series/series";
import { capRefusal, notePosted, xChargeOf, type XCharge } from "../spend/x-publish";

// The one publishing path of both engines (in-process scheduler, Inngest) and publish_now.
// At most once: a draft reaches the platform only after one conditional UPDATE moved it to
// `publishing`; whoever's UPDATE matched is the only caller of the platform, and it calls
// only while that claim is still its own (hold.ts): the stuck sweep may take a claim whose
// process was held up, and a call after that could post a draft the owner is shown `unknown`.

export const RETRY_WINDOW_MS = 30 * 60 * 1000;
export const TYPES: DraftType[] = ["post", "tweet"];

/** Due and not yet too late: scheduled_for has passed and any retry backoff is over. */
function dueWhere(type: DraftType, now: Date, c: Config) {
  const t = draftTable(type);
  const oldest = new Date(now.getTime() - c.SCHEDULE_MAX_LATENESS_SECONDS * 1000);
  return and(
    eq(t.status, "scheduled"),
    lte(t.scheduledFor, now),
    or(isNull(t.nextAttemptAt), lte(t.nextAttemptAt, now)),
    // A retry keeps its own 30-minute window; a first attempt must not be too late.
    or(
      and(isNotNull(t.firstAttemptAt), gt(t.firstAttemptAt, new Date(now.getTime() - RETRY_WINDOW_MS))),
      and(isNull(t.firstAttemptAt), gte(t.scheduledFor, oldest)),
    ),
  );
}

/**
 * The one claim: a conditional UPDATE moves the drafts matching `where` to `publishing`, and
 * only the rows it moved come back. Whoever's UPDATE matched is the only caller of the
 * platform for them.
 */
async function claim(
  db: Db,
  type: DraftType,
  where: SQL | undefined,
  now: Date,
  extra: Partial<typeof postDrafts.$inferInsert & typeof tweetDrafts.$inferInsert> = {},
): Promise<Claimed[]> {
  const t = draftTable(type);
  const rows = await db
    .update(t)
    .set({
      status: "publishing",
      publishAttempts: sql`${t.publishAttempts} + 1`,
      firstAttemptAt: sql`coalesce(${t.firstAttemptAt}, ${now.toISOString()}::timestamptz)`,
      // The stuck sweep measures from the claim; updated_at belongs to edits.
      claimedAt: now,
      ...extra,
    })
    .where(where)
    .returning();
  return rows.map((r) => ({ ...r, type }));
}

/**
 * Claims up to `limit` due drafts of each type in one UPDATE per table, both at once (on
 * separate connections when there is a pool: a claim is what a backlog's workers wait for).
 * With several processes on PostgreSQL, SKIP LOCKED hands each claimer different rows and the
 * status condition is re-checked on the locked row; on PGlite statements run one after another.
 */
export async function claimDue(db: Db, now: Date, limit: number, c: Config): Promise<Claimed[]> {
  const claimed = await Promise.all(
    TYPES.map((type) => {
      const t = draftTable(type);
      const due = dueWhere(type, now, c);
      // Oldest first; among drafts due at the same moment, by id (random): owners interleave, so
      // the scheduler's per-account limit does not leave call slots idle behind one owner's backlog.
      const ids = db.select({ id: t.id }).from(t).where(due).orderBy(t.scheduledFor, t.id).limit(limit).for("update", { skipLocked: true });
      // `= any(array(...))`, not `in (...)`: the array is computed once per statement. As a
      // semi-join, a planner without statistics (rows just written) ran the limited, locking
      // subquery again for every candidate row, claiming far more than `limit` and sorting
      // the due rows once per candidate.
      return claim(db, type, and(sql`${t.id} = any(array(${ids}))`, due), now);
    }),
  );
  return claimed.flat();
}

/**
 * publish_now's claim, inside its transaction: draft, scheduled or failed -> publishing.
 * publish_progress is kept: a thread that failed at part k resumes there, never re-posting.
 */
export async function claimForNow(
  tx: Db,
  type: DraftType,
  id: string,
  userId: string,
  now: Date,
  approvedContentHash: string,
  accountId: string | null,
): Promise<Claimed | null> {
  const t = draftTable(type);
  const where = and(eq(t.id, id), eq(t.userId, userId), inArray(t.status, ["draft", "scheduled", "failed"]));
  const extra = { publishAttempts: 1, firstAttemptAt: now, nextAttemptAt: null, failureReason: null, approvedContentHash, accountId };
  const [row] = await claim(tx, type, where, now, extra);
  return row ?? null;
}

/**
 * An error no adapter classified (a database failure, a bug): its details go to the log only,
 * under an id the owner sees in the reason. It may have happened after sending: unknown.
 */
function unexpected(e: unknown, c: Claimed): PublishError {
  const errorId = newErrorId();
  log("error", "publish failed unexpectedly", { errorId, draft: c.id, type: c.type, ...errorFacts(e) });
  return new PublishError(
    "unknown",
    `an unexpected error stopped publishing (error id ${errorId}); it may or may not have ` +
      `been posted. Check the account on the platform; it will not be posted again automatically.`,
  );
}

const mayHavePosted = (e: DuplicateRefusal) =>
  `${e.said}. An earlier attempt of this draft ended in an error and may have ` +
  `posted it after all: check the account; it will not be posted again automatically.`;

/** This attempt's hold on its claim: a renewal moves claimed_at, only while it is still this claim's. */
function holdOf(db: Db, c: Claimed, w: PublishPorts): Hold<Pick<Claimed, "publishProgress">> {
  const t = draftTable(c.type);
  const renew = async (now: Date, also?: Pick<Claimed, "publishProgress">) => {
    const rows = await db
      .update(t)
      .set({ claimedAt: now, ...also })
      .where(and(eq(t.id, c.id), eq(t.status, "publishing"), sameClaim(t.claimedAt, c.claimedAt)))
      .returning({ id: t.id });
    if (rows.length) c.claimedAt = now;
    return rows.length > 0;
  };
  return new Hold(renew, () => c.claimedAt, w.clock, w.config().PUBLISH_STUCK_SECONDS);
}

/**
 * The claim was taken before a call (the stuck sweep, while this process was held up), and
 * no call went out after that: what reached the platform is exactly what publish_progress
 * records, so it is said as it is rather than left "may or may not have been posted".
 */
function notSent(c: Claimed, platform: PlatformName, stuckSeconds: number): Outcome {
  const n = 1 + ("thread" in c ? c.thread.length : 0);
  const out = c.publishProgress?.parts ?? [];
  // Its last part went out before the claim was found taken: it is published.
  if (out.length >= n) return { status: "published", platform, postId: out[0].postId, url: out[0].url };
  const why =
    `publishing was held up for more than ${stuckSeconds} seconds before its call to ${network(platform).name}, ` +
    `so it was taken for interrupted, and it stopped there`;
  if (!out.length) return { status: "failed", platform, reason: `Nothing was posted: ${why}. Publish it again or schedule it.`, notSent: true };
  const range = out.length === 1 ? "part 1" : `parts 1–${out.length}`;
  return {
    status: "failed",
    platform,
    reason: `Posted ${range} of ${n}; the rest was not sent: ${why}. Publishing again continues with part ${out.length + 1} and never re-posts ${range}.`,
    notSent: true,
  };
}

/** Backoff between retries: 30 s, 1, 2, 4, 8 min, then every 10 min (inside 30 minutes). */
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 10 * 60_000);

/**
 * Calls the platform for a claimed draft and says what happened, without recording it (the
 * scheduler records outcomes in batches). `target` lets a caller reuse the account it looked
 * up for an earlier draft of the same user. Never throws.
 */
export async function attempt(db: Db, c: Claimed, w: PublishPorts, target?: Promise<Platform>): Promise<Outcome> {
  const platform = platformOf(c.type);
  // Checked on the claimed row, which is exactly what would be sent: whoever changed the
  // content after the owner's approval (any writer, not only this API), it does not go out.
  const changed = contentChangedReason(c);
  if (changed) return { status: "failed", platform, reason: changed };
  // A tweet to X: refused under the owner's monthly cap before any call; what goes out is recorded at X's price.
  let x: XCharge | null;
  try {
    x = await xChargeOf(db, c, w);
    const refused = x && (await capRefusal(db, x, w.clock()));
    if (refused) return { status: "failed", platform, reason: `${refused}.`, notSent: true };
  } catch (e) {
    log("error", "the monthly cap on X could not be checked", { draft: c.id, ...errorFacts(e) });
    return { status: "failed", platform, reason: "The monthly cap on X could not be checked, so nothing was sent to X. Publish it again.", notSent: true };
  }
  const outcome = await call(db, c, w, platform, target);
  if (!x) return outcome;
  const out = outcome.status === "published" ? x.texts.length : (c.publishProgress?.parts.length ?? 0);
  const cost = await notePosted(db, c, x, out, w.clock());
  return cost ? { ...outcome, cost } : outcome;
}

/** attempt()'s call of the platform, and what it came to. */
async function call(db: Db, c: Claimed, w: PublishPorts, platform: PlatformName, target?: Promise<Platform>): Promise<Outcome> {
  const hold = holdOf(db, c, w);
  let outcome: Outcome;
  try {
    const p = await (target ?? w.platforms.open(db, c.userId, platform, c.accountId));
    // Part by part: what an earlier attempt posted (publish_progress) is not sent again, and
    // each step's record renews the claim (the next call goes out only if that matched).
    const req = await publishRequest(db, c, w, hold);
    // However long it waited (its account's lane, the account's lookup), the call goes out
    // only if the claim is still this attempt's, and then renewed while it runs.
    if (!(await hold.confirm())) return notSent(c, platform, w.config().PUBLISH_STUCK_SECONDS);
    const res = await hold.during(() => p.publish(req));
    outcome = { status: "published", platform, postId: res.postId, url: res.url };
  } catch (e) {
    if (e instanceof ClaimLost) return notSent(c, platform, w.config().PUBLISH_STUCK_SECONDS);
    // A retry told the text is already there may be seeing this very draft: a server error
    // (a 502 from a proxy, say) can hide a post that was created. Not "nothing was posted".
    if (e instanceof DuplicateRefusal && (await triedBefore(db, c.userId, c.type, c.id))) return { status: "unknown", platform, reason: mayHavePosted(e) };
    const err = e instanceof PublishError ? new PublishError(e.kind, redactSecrets(e.message, 400), e.retryAt, e.dailyCap) : unexpected(e, c);
    outcome = { status: err.kind === "retry" ? "failed" : err.kind, platform, reason: err.message };
    if (err.dailyCap && err.retryAt) return afterDailyCap(db, c, w, platform, err.message, err.retryAt);
    if (err.kind === "retry") {
      const now = w.clock();
      const first = c.firstAttemptAt ?? now;
      const next = new Date(Math.max(now.getTime() + backoffMs(c.publishAttempts), err.retryAt?.getTime() ?? 0));
      if (next.getTime() < first.getTime() + RETRY_WINDOW_MS) outcome = { status: "retrying", platform, reason: err.message, nextAttemptAt: next };
      else outcome = { status: "failed", platform, reason: `Gave up after retrying for 30 minutes: ${err.message}` };
    }
  }
  return outcome;
}

/**
 * The network's daily cap is spent until `reset`, hours away: retrying at a short backoff
 * would only burn attempts. The draft waits for the reset when that is still within its
 * lateness window (counted from when it was due), with a window of its own from then on;
 * otherwise it fails, saying when the network takes posts again in the owner's time zone.
 */
async function afterDailyCap(db: Db, c: Claimed, w: PublishPorts, platform: PlatformName, reason: string, reset: Date): Promise<Outcome> {
  const started = c.firstAttemptAt ?? w.clock();
  const due = c.scheduledFor && c.scheduledFor <= started ? c.scheduledFor : started;
  if (reset.getTime() <= due.getTime() + w.config().SCHEDULE_MAX_LATENESS_SECONDS * 1000)
    return { status: "retrying", platform, reason: `${reason} It is tried again when the cap resets.`, nextAttemptAt: reset, restartWindow: true };
  const [u] = await db.select({ timezone: users.timezone }).from(users).where(eq(users.id, c.userId));
  const name = network(platform).name;
  return {
    status: "failed",
    platform,
    reason: `${reason} ${name} allows posting again at ${formatInZone(reset, u?.timezone ?? "UTC")}; schedule it for then or later.`,
  };
}

export function logOutcome(c: Claimed, o: Outcome) {
  log(o.status === "published" || o.status === "retrying" ? "info" : "warn", "publish", {
    draft: c.id,
    type: c.type,
    status: o.status,
    ...(o.status !== "published" && { reason: o.reason }),
  });
}

/** Calls the platform for a claimed draft and records what happened. Never throws. */
export async function publishClaimed(db: Db, c: Claimed, w: PublishPorts): Promise<Outcome> {
  const outcome = await attempt(db, c, w);
  await db.transaction((tx) => record(tx, c, outcome, w.clock())); // the outcome and its webhook event in one transaction
  logOutcome(c, outcome);
  if (outcome.status === "published" && c.firstComment) await postFirstComment(db, c.type, c.id, w);
  return outcome;
}

/** A published draft's first comment, if it has one not yet under way: `pending` (first-comment.ts). */
export const commentWaits = (t: ReturnType<typeof draftTable>) =>
  sql<FirstCommentStatus | null>`case when ${t.firstComment} is not null and ${t.firstCommentStatus} is null then 'pending' else ${t.firstCommentStatus} end`;

/** Stores one outcome; `now` is when the platform answered (published_at). */
export async function record(db: Db, c: Claimed, o: Outcome, now: Date) {
  const t = draftTable(c.type);
  // `unknown` too: the stuck sweep may have given up on a call that did finish after all. And
  // only under this attempt's claim: once the owner settled it, a later claim is not this one's.
  const mine = and(eq(t.id, c.id), inArray(t.status, ["publishing", "unknown"]), sameClaim(t.claimedAt, c.claimedAt));
  if (o.status === "published") {
    const set = {
      status: "published" as const,
      publishedAt: now,
      platformPostId: o.postId,
      platformUrl: o.url,
      failureReason: null,
      nextAttemptAt: null,
      firstCommentStatus: commentWaits(t),
    };
    // A transaction only when a series topic must change with it (most drafts: one statement).
    if (!c.seriesTopicId) await db.update(t).set(set).where(mine);
    else {
      const topicId = c.seriesTopicId;
      await db.transaction(async (tx) => {
        await holdTopic(tx, topicId); // the series and topic before the draft, as manage_series takes them
        const rows = await tx.update(t).set(set).where(mine).returning({ id: t.id });
        if (rows.length) await markTopicPublished(tx, topicId, o.platform, o.postId);
      });
    }
  } else if (o.status === "retrying") {
    // Back to `scheduled` (publish_now's drafts too): the scheduler tries again when due.
    await db
      .update(t)
      .set({
        status: "scheduled",
        scheduledFor: c.scheduledFor ?? c.firstAttemptAt ?? now,
        nextAttemptAt: o.nextAttemptAt,
        failureReason: o.reason,
        // Waiting out a daily cap: the draft is due again at the reset, within its lateness window.
        ...(o.restartWindow && { firstAttemptAt: null }),
      })
      .where(and(eq(t.id, c.id), eq(t.status, "publishing"), sameClaim(t.claimedAt, c.claimedAt)));
  } else {
    const rows = await db.update(t).set({ status: o.status, failureReason: o.reason, nextAttemptAt: null }).where(mine).returning({ id: t.id });
    // Nothing was sent and the owner has settled it since (or deleted it): nothing to tell.
    if (o.status === "failed" && o.notSent && !rows.length) return;
  }
  await noteAttempts(db, [attemptOf(c, o)]);
}

/** An outcome as the draft's history keeps it. */
export const attemptOf = (c: Claimed, o: Outcome) => ({
  userId: c.userId,
  accountId: c.accountId,
  type: c.type,
  id: c.id,
  status: o.status,
  ...(o.cost && { cost: o.cost }),
  ...(o.status === "published" ? { url: o.url } : { reason: o.reason }),
});

/**
 * Nothing sits past its time unnoticed: drafts too late to post become `failed` ("missed"),
 * and drafts left in `publishing` by a process that died become `unknown` (never re-posted:
 * the call may have reached the platform). Each change goes into the draft's history too.
 * Returns how many rows each rule changed.
 */
export async function sweep(db: Db, now: Date, c: Config): Promise<{ missed: number; stuck: number }> {
  const oldest = new Date(now.getTime() - c.SCHEDULE_MAX_LATENESS_SECONDS * 1000);
  const stuckBefore = new Date(now.getTime() - c.PUBLISH_STUCK_SECONDS * 1000);
  const missed: AttemptOutcome[] = [];
  const stuck: AttemptOutcome[] = [];
  for (const type of TYPES) {
    const t = draftTable(type);
    const changed = { id: t.id, userId: t.userId, reason: t.failureReason, accountId: t.accountId };
    const note = (status: "failed" | "unknown") => (rows: { id: string; userId: string; reason: string | null; accountId: string | null }[]) =>
      rows.map((r) => ({ userId: r.userId, accountId: r.accountId, type, id: r.id, status, reason: r.reason ?? undefined }));
    const missedNow = await db
      .update(t)
      .set({
        status: "failed",
        failureReason: sql`'missed: it was not published within ' || ${String(c.SCHEDULE_MAX_LATENESS_SECONDS)} || ' seconds of its time ('
          || to_char(${t.scheduledFor} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
          || '), so it was not posted late. Schedule it again or publish it now.'`,
      })
      .where(and(eq(t.status, "scheduled"), isNull(t.firstAttemptAt), lt(t.scheduledFor, oldest)))
      .returning(changed);
    // Retries whose 30-minute window ran out while nobody was polling.
    const gaveUp = await db
      .update(t)
      .set({ status: "failed", failureReason: sql`'gave up after retrying for 30 minutes: ' || coalesce(${t.failureReason}, 'no reason recorded')` })
      .where(and(eq(t.status, "scheduled"), lt(t.firstAttemptAt, new Date(now.getTime() - RETRY_WINDOW_MS))))
      .returning(changed);
    const stuckNow = await db
      .update(t)
      .set({
        status: "unknown",
        failureReason:
          `publishing was interrupted (no answer recorded within ${c.PUBLISH_STUCK_SECONDS} seconds); it may or ` +
          `may not have been posted. Check the account on the platform; it will not be posted again automatically.`,
      })
      .where(and(eq(t.status, "publishing"), lt(t.claimedAt, stuckBefore)))
      .returning(changed);
    missed.push(...note("failed")([...missedNow, ...gaveUp]));
    stuck.push(...note("unknown")(stuckNow));
  }
  if (missed.length || stuck.length) await noteAttempts(db, [...missed, ...stuck]);
  return { missed: missed.length, stuck: stuck.length + (await sweepStuckComments(db, now, c)) };
}

/**
 * The earliest moment a pass could find work without anything being written first, or null:
 * the first scheduled draft's time (one in the past: a retry waiting out its backoff, or
 * work not yet done), a first comment waiting for its post (now), or the first claim's stuck
 * limit. One read over both tables' due indexes.
 */
export async function nextWork(db: Db, c: Config): Promise<Date | null> {
  const first = (column: string, statusColumn: "status" | "first_comment_status", status: string) =>
    sql.join(
      TYPES.map((type) => sql`(select min(${sql.identifier(column)}) from ${draftTable(type)} where ${sql.identifier(statusColumn)} = ${status})`),
      sql`, `,
    );
  const stuckLimit = sql`make_interval(secs => ${c.PUBLISH_STUCK_SECONDS}::int)`;
  return momentOf(
    await db.execute(
      sql`select extract(epoch from least(${first("scheduled_for", "status", "scheduled")},
        ${first("published_at", "first_comment_status", "pending")},
        least(${first("claimed_at", "status", "publishing")}) + ${stuckLimit},
        least(${first("first_comment_claimed_at", "first_comment_status", "posting")}) + ${stuckLimit}))::float8 * 1000 as ms`,
    ),
  );
}

/** The Inngest path (handed the process's ports): publishes one draft if it is (still) due at this moment, else nothing. */
export async function publishDueDraft(db: Db, type: DraftType, id: string, w: PublishPorts) {
  const now = w.clock();
  const [row] = await claim(db, type, and(eq(draftTable(type).id, id), dueWhere(type, now, w.config())), now);
  if (!row) return { status: "not_due" as const };
  return publishClaimed(db, row, w);
}
