import type { Db } from "@/lib/adapters/db";
import { postMetrics } from "@/drizzle/schema";
import { log } from "@/lib/core/log";
import { errorFacts, redactSecrets } from "@/lib/core/redact";
import { PublishError, platformOf, type EngagementRead } from "@/lib/domain/networks/platform";
import type { PublishPorts } from "../publishing/outcomes";
import { takeXReads } from "./budget";
import { accountFor } from "../accounts/accounts";
import { noteSpend, onX, readsUnderCap, xReadPrice } from "../spend/x-spend";
import { metricWindows, planRead, type Window } from "./schedule";
import { claimDue, nextDue, type Due } from "./due";

// Reads published posts' engagement at the times of the schedule (schedule.ts), in the
// background engine that publishes (the in-process loop or Inngest's cron), never in a request.
// At most once per post and window (due.ts claims each read before the network is asked).
// Whatever the network says, or why it said nothing (a 429, a missing permission, the read
// budget), is stored as that window's row: nothing is retried in a loop.

/** Reads one account's due posts and stores a row for each. Never throws. */
async function readAccount(db: Db, posts: Due[], w: PublishPorts): Promise<EngagementRead[]> {
  const { userId, type, accountId } = posts[0];
  const now = w.clock();
  try {
    const platform = await w.platforms.open(db, userId, platformOf(type), accountId);
    let reading = posts;
    const reads = new Map<string, EngagementRead>();
    // X charges for each post read: the owner's cap on the account (in dollars) first, then this month's budget of reads.
    const x = platform.kind === "x" ? await accountFor(db, userId, "micro", accountId).catch(() => null) : null;
    const price = xReadPrice(x, w.config());
    if (onX(x)) {
      const { n, why } = await readsUnderCap(db, x, reading.length, price, now);
      for (const p of reading.slice(n)) reads.set(p.postId, { note: `${why}.` });
      reading = reading.slice(0, n);
    }
    if (platform.kind === "x" && reading.length) {
      const granted = await takeXReads(db, userId, reading.length, w.config().METRICS_X_READS_PER_MONTH, now);
      for (const p of reading.slice(granted))
        reads.set(p.postId, { note: "This month's budget of reads from X is used up (X charges for each read); it starts again next month." });
      reading = reading.slice(0, granted);
    }
    if (reading.length) for (const [id, read] of await platform.metrics({ posts: reading, now })) reads.set(id, read);
    // X bills each post its answer returns.
    const billed = reading.filter((p) => "metrics" in (reads.get(p.postId) ?? {})).length;
    if (onX(x)) await noteSpend(db, [{ userId, accountId: x.id, kind: "read", micros: billed * price }], now);
    return posts.map((p) => reads.get(p.postId) ?? { note: "The network's answer did not include this post." });
  } catch (e) {
    const note = `It could not be read: ${redactSecrets(String((e as Error)?.message ?? e), 300)}`;
    if (!(e instanceof PublishError)) log("error", "metrics read failed", { userId, type, ...errorFacts(e) });
    return posts.map(() => ({ note }));
  }
}

/** One pass: claims every due read, reads each account's posts together, stores the answers. */
export async function collectDue(db: Db, w: PublishPorts): Promise<{ read: number; noted: number }> {
  const windows = metricWindows(w.config().METRICS_AFTER);
  if (!windows.length) return { read: 0, noted: 0 };
  const due = [...(await claimDue(db, "post", "metrics", windows, w.clock())), ...(await claimDue(db, "tweet", "metrics", windows, w.clock()))];
  const accounts = new Map<string, Due[]>();
  for (const d of due) {
    const key = `${d.userId}:${d.type}:${d.accountId ?? "default"}`;
    accounts.set(key, [...(accounts.get(key) ?? []), d]);
  }
  const r = { read: 0, noted: 0 };
  for (const posts of accounts.values()) {
    const reads = await readAccount(db, posts, w);
    const at = w.clock();
    await db.insert(postMetrics).values(
      posts.map((p, i) => {
        const read = reads[i];
        if ("metrics" in read) r.read++;
        else r.noted++;
        return {
          userId: p.userId,
          draftType: p.type,
          draftId: p.id,
          window: p.window,
          collectedAt: at,
          ...("metrics" in read ? read.metrics : { note: read.note }),
        };
      }),
    );
  }
  if (due.length) log("info", "metrics", r);
  return r;
}

/** When the next read comes due (for the loop's sleep), or null for none. */
export const nextRead = (db: Db, spec: string) => nextDue(db, "metrics", spec);
