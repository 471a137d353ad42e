import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { postDrafts, type LinkCard } from "@/drizzle/schema";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import type { Ports } from "../ports";
import type { Ctx } from "../context";
import { AppError, notFound } from "@/lib/core/errors";
import { changedSinceShown } from "../approvals/approvals";
import { contentHashOf } from "./content-hash";
import { noteByCaller } from "./history";

// LinkedIn makes no preview of a link sent through the Posts API: a post with a link and no
// media goes out as bare text unless the post carries the card itself (article content:
// source, title, description, thumbnail). So a LinkedIn post draft whose text has a link and
// no images or document gets a card from the page's Open Graph tags, stored on the draft
// (link_card) before anyone approves it: the owner sees and may edit it, its hash is part of
// what is approved, and publishing sends exactly it. A page that cannot be read leaves a card
// with `error`: the post goes without one, and the item page says why.

type Carded = { body: string; imageUrl: string | null; imageUrls: string[]; documentUrl?: string | null; linkCard?: LinkCard | null };

const LINK = /\bhttps?:\/\/[^\s<>"'()[\]{}]+/i;

/** The link a post's card is for: the first in its text, when it has no images or document; else null. */
export function cardLink(d: Carded): string | null {
  if (d.imageUrls.length || d.imageUrl || d.documentUrl) return null;
  const m = LINK.exec(d.body);
  // A sentence's closing punctuation is not part of the link.
  return m ? m[0].replace(/[.,;:!?]+$/, "") : null;
}

/** The card the post goes out with: a stored one for its link, read without error; else null. */
export function usableCard(d: Carded): LinkCard | null {
  const link = cardLink(d);
  return link && d.linkCard && !d.linkCard.error && d.linkCard.source === link ? d.linkCard : null;
}

/** A page that could not be read is tried again after this long (it may have been down). */
const RETRY_UNREAD_MS = 10 * 60_000;

/** The link whose card is to be read: none stored for the text's link, or its page could not be read a while ago. */
export const cardDue = (d: Carded, now: Date): string | null => {
  const link = cardLink(d);
  if (!link) return null;
  const card = d.linkCard;
  if (card?.source !== link) return link;
  return card.error && (!card.readAt || now.getTime() - Date.parse(card.readAt) > RETRY_UNREAD_MS) ? link : null;
};

/**
 * Reads the card of a post draft that needs one (a link, no media, no card for that link yet;
 * LinkedIn configured) and stores it, while the draft is still a draft (or failed): the content of a scheduled
 * draft is what its owner approved and is not changed under it. Never throws: a card that
 * cannot be stored is read again next time.
 */
export async function ensureLinkCard(db: Db, ports: Pick<Ports, "pages" | "platforms" | "clock">, userId: string, id: string): Promise<void> {
  // The sandbox shows no card: no page is read for it.
  if (!ports.platforms.configured("linkedin")) return;
  try {
    const [d] = await db
      .select()
      .from(postDrafts)
      .where(and(eq(postDrafts.id, id), eq(postDrafts.userId, userId)));
    const now = ports.clock();
    const link = d && (d.status === "draft" || d.status === "failed") ? cardDue(d, now) : null;
    if (!link) return;
    const page = await ports.pages.card(link);
    const readAt = now.toISOString();
    const card: LinkCard =
      "error" in page ? { source: link, title: "", description: "", image: null, error: page.error, readAt } : { source: link, ...page, readAt };
    // Only onto the text it was read for, and still before any approval.
    await db
      .update(postDrafts)
      .set({ linkCard: card })
      .where(and(eq(postDrafts.id, id), eq(postDrafts.userId, userId), eq(postDrafts.body, d.body), inArray(postDrafts.status, ["draft", "failed"])));
  } catch (e) {
    log("warn", "link card", errorFacts(e));
  }
}

/** What the owner is told of a post's link card (fetch_item's notes, the item page), or null when it has no link to carry one. */
export function cardNote(d: Carded): string | null {
  const link = cardLink(d);
  if (!link) return null;
  const card = d.linkCard?.source === link ? d.linkCard : null;
  if (!card) return `Link card: not read yet; it is read from ${link} before the post is approved.`;
  if (card.error) return `No link card: ${link} could not be read (${card.error}); the post goes out on LinkedIn without one.`;
  return `Link card: “${card.title}”${card.description ? ` (${card.description})` : ""}${card.image ? ", with its picture" : ", without a picture"}.`;
}

/**
 * The owner changes the title or description of a draft's link card (the item page), on the
 * content their page showed. Only before it is approved: a scheduled post's card is what the
 * owner approved, so it is unscheduled first.
 */
export async function editLinkCard(ctx: Ctx, input: { id: string; title: string; description: string }) {
  const where = and(eq(postDrafts.id, input.id), eq(postDrafts.userId, ctx.caller.userId));
  await ctx.db.transaction(async (tx) => {
    const [d] = await tx.select().from(postDrafts).where(where).for("update");
    if (!d) throw notFound("post");
    // In person only: the form names the content its page showed, or nothing changes.
    if (ctx.shown !== contentHashOf(d)) throw changedSinceShown("post");
    if (d.status !== "draft" && d.status !== "failed")
      throw new AppError("action_failed", `This post is ${d.status}; its link card can be changed only before it is scheduled.`, "Unschedule it first.");
    const card = usableCard(d);
    if (!card) throw new AppError("action_failed", "This post has no link card to change.", "A LinkedIn post with a link and no images or document has one.");
    await tx
      .update(postDrafts)
      .set({ linkCard: { ...card, title: input.title.trim(), description: input.description.trim() }, updatedAt: ctx.now() })
      .where(where);
  });
  await noteByCaller(ctx, { type: "post", id: input.id, kind: "edited", detail: { fields: "link card" } });
}
