import type { ApprovalAttachments, LinkCard, ThreadPart } from "@/drizzle/schema";
import { sha256 } from "../hash";

/**
 * What the owner approves of a draft: everything that decides what the audience sees. A row
 * of either draft table is one (posts have no thread, tweets no document).
 */
export type DraftContent = {
  title: string;
  body: string;
  /** The first of imageUrls (kept for older readers). */
  imageUrl: string | null;
  imageUrls: string[];
  documentUrl?: string | null;
  documentTitle?: string | null;
  thread?: ThreadPart[];
  /** Posted right after the post: a comment on it (LinkedIn) or a reply to it (X). */
  firstComment?: string | null;
  /** The account it goes to (null: the network's default, bound when it is scheduled or published). */
  accountId?: string | null;
  /** A LinkedIn post's link card (link-card.ts); only a usable one is content. */
  linkCard?: LinkCard | null;
};

/** Just the content of a draft row (or anything shaped like one). */
export const contentOf = (d: DraftContent): DraftContent => ({
  title: d.title,
  body: d.body,
  imageUrl: d.imageUrl,
  imageUrls: d.imageUrls,
  documentUrl: d.documentUrl ?? null,
  documentTitle: d.documentTitle ?? null,
  thread: d.thread ?? [],
  firstComment: d.firstComment ?? null,
  accountId: d.accountId ?? null,
  linkCard: d.linkCard ?? null,
});

/** Images, document, thread parts and first comment as an approval stores and shows them. */
export const attachmentsOf = (c: DraftContent): ApprovalAttachments => ({
  image_urls: c.imageUrls,
  document: c.documentUrl ? { url: c.documentUrl, title: c.documentTitle ?? null } : null,
  thread: (c.thread ?? []).map((p) => ({ text: p.text, image_urls: p.image_urls ?? [] })),
  // Only when there is one: content without it stores and hashes as before first comments.
  ...(c.firstComment ? { first_comment: c.firstComment } : {}),
  // Only a card the post carries: content without one stores and hashes as before cards.
  ...(c.linkCard && !c.linkCard.error
    ? { link_card: { source: c.linkCard.source, title: c.linkCard.title, description: c.linkCard.description, image: c.linkCard.image } }
    : {}),
});

/**
 * One hash of a draft's content, used by approvals (what the owner saw) and by publishing
 * (what goes out), so the two can be compared: the publisher posts a scheduled draft only
 * while its content still hashes to the approved value. It covers title, text, every image
 * (in order), the document (address and title), every thread part with its images, the
 * first comment, and the account it goes to once one is chosen or bound.
 *
 * Content with at most one image and nothing else hashes exactly as before images lists,
 * documents and threads existed, so drafts approved before the upgrade still go out; anything
 * more takes the full form (which also keeps image_url, so a change of either column shows).
 */
export function contentHashOf(c: DraftContent): string {
  const a = attachmentsOf(c);
  const simple =
    a.image_urls.length <= 1 &&
    (a.image_urls[0] ?? null) === (c.imageUrl ?? null) &&
    !a.document &&
    a.thread.length === 0 &&
    !a.first_comment &&
    !a.link_card &&
    !c.accountId;
  if (simple) return sha256({ title: c.title, body: c.body, image_url: c.imageUrl ?? null });
  return sha256({ v: 2, title: c.title, body: c.body, image_url: c.imageUrl ?? null, ...a, ...(c.accountId ? { account_id: c.accountId } : {}) });
}

/**
 * Why a claimed draft must not go out, or null. A null approved hash belongs to a draft
 * scheduled before approvals recorded it, and is let through.
 */
export function contentChangedReason(d: DraftContent & { approvedContentHash: string | null }): string | null {
  if (d.approvedContentHash === null || contentHashOf(d) === d.approvedContentHash) return null;
  return (
    "its content changed after the owner approved it (title, text, images, document, thread parts, first comment, link card or account differ from the " +
    "approved version), so it was not posted. Review the draft and schedule it again; the owner approves the new content."
  );
}
