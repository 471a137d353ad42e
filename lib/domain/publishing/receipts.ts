import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { errorFacts, redactSecrets } from "@/lib/core/redact";
import { networkOfDraft } from "@/lib/domain/networks";
import { platformOf, type Receipt } from "@/lib/domain/networks/platform";
import { draftTable } from "../drafts/drafts";
import { noteReceipt } from "../drafts/history";
import { accountFor } from "../accounts/accounts";
import { claimDue, nextDue, type Due } from "../metrics/due";
import { metricWindows } from "../metrics/schedule";
import { capProblem, noteSpend, onX, xReadPrice } from "../spend/x-spend";
import { postRemoved } from "../webhooks/domain-events";
import type { PublishPorts } from "./outcomes";

// Receipts: a published post read back from its network at RECEIPTS_AFTER's times (5 minutes
// and 1 hour by default), on the schedule machinery of engagement reads (metrics/due.ts: each
// read claimed once), in the same background loop. A network can accept a post and drop it
// afterwards (LinkedIn's post-processing after its 201): a post the network no longer has
// becomes `removed`, with its webhook event in the same transaction and a history entry the
// owner's notification sweep mails. A read that says nothing (a refusal, an outage) is noted
// in the history and changes nothing.

export type ReceiptPass = { confirmed: number; removed: number; unchecked: number };

async function readBack(db: Db, d: Due, w: PublishPorts): Promise<Receipt | null> {
  try {
    const platform = await w.platforms.open(db, d.userId, platformOf(d.type), d.accountId);
    if (!platform.receipt) return null;
    const now = w.clock();
    // X charges a read back as it charges an engagement read: it counts under the owner's cap
    // (not under METRICS_X_READS_PER_MONTH, which is engagement's own budget).
    const x = platform.kind === "x" ? await accountFor(db, d.userId, "micro", d.accountId).catch(() => null) : null;
    if (!onX(x)) return await platform.receipt({ postId: d.postId, now });
    const price = xReadPrice(x, w.config());
    const over = await capProblem(db, x, price, "read", now);
    if (over) return { state: "unchecked", reason: `${over}.` };
    const got = await platform.receipt({ postId: d.postId, now });
    // X bills a read that returned the post.
    if (got.state === "confirmed") await noteSpend(db, [{ userId: d.userId, accountId: x.id, kind: "read", micros: price }], now);
    return got;
  } catch (e) {
    // No adapter (a connection gone since): nothing can be said of the post.
    return { state: "unchecked", reason: `It could not be read back: ${redactSecrets(String((e as Error)?.message ?? e), 300)}` };
  }
}

/** The post is gone: removed (if still published), its event and history written together. */
async function markRemoved(db: Db, d: Due, said: string, now: Date): Promise<boolean> {
  const t = draftTable(d.type);
  const reason = `${said}, ${d.window} after it was published`;
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .update(t)
      .set({ status: "removed", failureReason: reason, receiptDone: true })
      .where(and(eq(t.id, d.id), eq(t.userId, d.userId), eq(t.status, "published")))
      .returning({ id: t.id });
    if (!gone) return false;
    await postRemoved(tx, { ...d, reason }, now);
    await noteReceipt(tx, { userId: d.userId, type: d.type, id: d.id, kind: "removed", detail: { window: d.window, reason, url: d.url } });
    return true;
  });
}

/** One pass: claims every due read back, reads each post, records what it found. Never throws for one post. */
export async function checkReceipts(db: Db, w: PublishPorts): Promise<ReceiptPass> {
  const windows = metricWindows(w.config().RECEIPTS_AFTER);
  const r: ReceiptPass = { confirmed: 0, removed: 0, unchecked: 0 };
  if (!windows.length) return r;
  const now = w.clock();
  const due = [...(await claimDue(db, "post", "receipt", windows, now)), ...(await claimDue(db, "tweet", "receipt", windows, now))];
  for (const d of due) {
    const got = await readBack(db, d, w);
    if (!got) continue;
    try {
      if (got.state === "gone") {
        if (await markRemoved(db, d, got.said, w.clock())) r.removed++;
        log("warn", "receipt: post gone", { userId: d.userId, type: d.type, id: d.id, network: networkOfDraft(d.type).platform });
      } else {
        r[got.state]++;
        const detail: Record<string, string> = got.state === "unchecked" ? { window: d.window, reason: got.reason } : { window: d.window };
        await noteReceipt(db, { userId: d.userId, type: d.type, id: d.id, kind: `receipt_${got.state}`, detail });
      }
    } catch (e) {
      log("error", "receipt failed", { userId: d.userId, type: d.type, ...errorFacts(e) });
    }
  }
  if (due.length) log("info", "receipts", r);
  return r;
}

/** When the next read back comes due (for the loop's sleep), or null for none. */
export const nextReceipt = (db: Db, spec: string) => nextDue(db, "receipt", spec);
