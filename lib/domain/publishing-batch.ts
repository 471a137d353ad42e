import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { draftTable } from "./drafts";
import { noteAttempts } from "./history";
import { attemptOf, record, TYPES, type Claimed, type Outcome } from "./publishing";

// The scheduler's bulk write of outcomes: with thousands of drafts due at once, one UPDATE
// per draft is what limits throughput. Published drafts (the common case) are written many
// to one statement; everything else goes through record() one by one, as publish_now does.

export type Done = { c: Claimed; o: Outcome; at: Date };
const CHUNK = 1000; // 4 parameters a row, well under PostgreSQL's 65,535

/**
 * Records outcomes. Same conditions as record(): a draft is only marked published while it
 * is still `publishing` (or `unknown`, when the stuck sweep gave up on a call that did finish).
 */
export async function recordMany(db: Db, done: Done[]) {
  // A series topic changes with its draft in one transaction: those go one by one.
  const bulk = (d: Done) => d.o.status === "published" && !d.c.seriesTopicId;
  for (const type of TYPES) {
    const t = draftTable(type);
    const rows = done.filter((d) => d.c.type === type && bulk(d));
    for (let i = 0; i < rows.length; i += CHUNK) {
      const values = sql.join(
        rows.slice(i, i + CHUNK).map(({ c, o, at }) => {
          const p = o as Extract<Outcome, { status: "published" }>;
          return sql`(${c.id}::uuid, ${at.toISOString()}::timestamptz, ${p.postId}::text, ${p.url}::text)`;
        }),
        sql`, `,
      );
      await db.execute(sql`
        update ${t} set status = 'published', published_at = v.at, platform_post_id = v.post_id, platform_url = v.url,
          failure_reason = null, next_attempt_at = null
        from (values ${values}) as v(id, at, post_id, url)
        where ${t.id} = v.id and ${t.status} in ('publishing', 'unknown')`);
    }
  }
  await noteAttempts(
    db,
    done.filter(bulk).map((d) => attemptOf(d.c, d.o)),
  );
  for (const d of done) if (!bulk(d)) await record(db, d.c, d.o, d.at);
}
