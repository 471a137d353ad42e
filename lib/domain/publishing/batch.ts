import { sql } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { draftTable } from "../drafts/drafts";
import { noteAttempts } from "../drafts/history";
import { attemptOf, commentWaits, record, TYPES, type Claimed, type Outcome } from "./publish";
import { log } from "@/lib/core/log";
import { errorCode, errorFacts } from "@/lib/core/redact";
import { jsonText } from "@/drizzle/schema/columns";

// The scheduler's bulk write of outcomes: with thousands of drafts due at once, one UPDATE
// per draft is what limits throughput. Published drafts (the common case) are written many
// to one statement; everything else goes through record() one by one, as publish_now does.

/** A deadlock or serialization failure: PostgreSQL undid the savepoint, a second try may pass. */
const lockConflict = (e: unknown): boolean => ["40P01", "40001"].includes(String(errorCode(e)));

export type Done = { c: Claimed; o: Outcome; at: Date };

/**
 * Records outcomes. Same conditions as record(): a draft is only marked published while it
 * is still `publishing` (or `unknown`, when the stuck sweep gave up on a call that did finish),
 * under the claim that made the call.
 */
export async function recordMany(db: Db, done: Done[]) {
  // A series topic changes with its draft in one transaction: those go one by one.
  const bulk = (d: Done) => d.o.status === "published" && !d.c.seriesTopicId;
  for (const type of TYPES) {
    const t = draftTable(type);
    const rows = done.filter((d) => d.c.type === type && bulk(d));
    if (!rows.length) continue;
    // The rows as one JSON parameter: cheaper to build than 4 parameters a row, and unbounded.
    const json = jsonText(
      rows.map(({ c, o, at }) => {
        const p = o as Extract<Outcome, { status: "published" }>;
        return { id: c.id, at: at.toISOString(), post_id: p.postId, url: p.url, claimed_at: c.claimedAt?.toISOString() ?? null };
      }),
    );
    await db.execute(sql`
      update ${t} set status = 'published', published_at = v.at, platform_post_id = v.post_id, platform_url = v.url,
        failure_reason = null, next_attempt_at = null, first_comment_status = ${commentWaits(t)}
      from jsonb_to_recordset(${json}::jsonb) as v(id uuid, at timestamptz, post_id text, url text, claimed_at timestamptz)
      where ${t.id} = v.id and ${t.status} in ('publishing', 'unknown') and ${t.claimedAt} is not distinct from v.claimed_at`);
  }
  await noteAttempts(
    db,
    done.filter(bulk).map((d) => attemptOf(d.c, d.o)),
  );
  // Each in a savepoint of its own: one that cannot be written (a lock conflict, say) stays
  // `publishing`, for the stuck sweep to call unknown, and does not undo the batch's others.
  for (const d of done) {
    if (bulk(d)) continue;
    const once = () => db.transaction((one) => record(one, d.c, d.o, d.at));
    await once()
      .catch((e) => (lockConflict(e) ? once() : Promise.reject(e))) // the other side has gone on: once more
      .catch((e) => log("error", "publish outcome not recorded", { draft: d.c.id, type: d.c.type, ...d.o, ...errorFacts(e) }));
  }
}
