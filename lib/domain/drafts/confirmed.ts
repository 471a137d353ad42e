import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { readable } from "@/lib/adapters/db/readable";
import { AppError } from "@/lib/core/errors";
import { changedSinceShown } from "../approvals/approvals";
import type { Ctx } from "../context";
import { contentHashOf, type DraftContent } from "./content-hash";
import { draftTable, label, loadOwn, type DraftType } from "./drafts";

// Pages that show a draft by its title alone (the calendar, the queue) cannot confirm a text
// they did not show. They act only on content the owner has seen in full: what they last
// approved, scheduled or saved themselves (approved_content_hash), when the draft still holds
// exactly that. Anything an app changed since opens the draft first.

type Confirmable = DraftContent & { approvedContentHash: string | null };

/** The content's hash when the owner has seen all of it as it is now, else null. */
export const confirmedHash = (d: Confirmable): string | null =>
  d.approvedContentHash && contentHashOf(d) === d.approvedContentHash ? d.approvedContentHash : null;

/** The owner's drafts among `ids` whose content they have seen as it is now, with its hash. */
export async function confirmedDrafts(db: Db, userId: string, type: DraftType, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const t = draftTable(type);
  const rows = await db
    .select(readable(t))
    .from(t)
    .where(and(eq(t.userId, userId), inArray(t.id, ids)));
  return new Map(rows.flatMap((r) => (confirmedHash(r) ? [[r.id, confirmedHash(r)!] as const] : [])));
}

/** The refusal of a title-only page's action on content the owner has not seen as it is now. */
export function requireConfirmed(type: DraftType, d: Confirmable) {
  if (confirmedHash(d)) return;
  throw new AppError(
    "action_failed",
    `This ${label(type)} holds content you have not seen in full (an app wrote or changed it since you last approved it), so nothing was done.`,
    "Open it, read what it says now, and schedule it from its page.",
  );
}

/**
 * The owner pressed Save on the draft's page without changing it: they have seen what it holds,
 * which from now on titles-only pages may act on. Only for what the page showed (Ctx.shown),
 * and never for a scheduled draft, whose confirmed content is what its schedule approved.
 */
export async function confirmShown(ctx: Ctx, type: DraftType, id: string): Promise<void> {
  if (!ctx.caller.inPerson) return;
  const t = draftTable(type);
  await ctx.db.transaction(async (tx) => {
    const d = await loadOwn(tx, ctx, type, id);
    if (contentHashOf(d) !== ctx.shown) throw changedSinceShown(type);
    if (d.status === "scheduled" || d.approvedContentHash === ctx.shown) return;
    await tx
      .update(t)
      .set({ approvedContentHash: ctx.shown })
      .where(and(eq(t.id, d.id), ne(t.status, "scheduled")));
  });
}
