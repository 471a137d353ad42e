import { AppError, invalid } from "@/lib/core/errors";
import { networkOfDraft } from "@/lib/domain/networks";
import type { Ctx } from "../context";
import { accountFor } from "../accounts/accounts";
import { requireConfirmed } from "../drafts/confirmed";
import { loadOwn, type DraftType } from "../drafts/drafts";
import { scheduleContent } from "../publishing/schedule";
import { queueOverview } from "./queue";

// The queue page's Move: a queued draft to a free slot the page offered, or to the end of its
// account's queue (the first free slot after the last queued draft). The page shows titles
// only, so it moves only content the owner has seen in full (drafts/confirmed.ts), and only
// what it showed (Ctx.shown).

export async function moveInQueue(ctx: Ctx, input: { type: DraftType; id: string; to: string }) {
  const d = await loadOwn(ctx.db, ctx, input.type, input.id);
  requireConfirmed(input.type, d);
  let at = input.to;
  if (at === "end") {
    const account = await accountFor(ctx.db, ctx.caller.userId, networkOfDraft(input.type).platform, d.accountId);
    const end = account && (await queueOverview(ctx.db, ctx.caller.userId, ctx.caller.timezone, account, ctx.now(), 1)).end;
    if (!end) throw new AppError("action_failed", "This queue has no free slot to move it to.", "Add a slot, then try again.");
    at = end.toISOString();
  } else if (isNaN(Date.parse(at))) throw invalid([{ path: "to", message: "Choose a free slot to move it to" }]);
  const out = await scheduleContent(ctx, { type: input.type, id: d.id, scheduled_for: at });
  return { id: d.id, type: input.type, scheduled_for: out.scheduled_for, rescheduled: out.rescheduled };
}
