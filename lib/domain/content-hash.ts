import { sha256 } from "./hash";

/** What the owner approves of a draft: the parts that decide what the audience sees. */
export type DraftContent = { title: string; body: string; imageUrl: string | null };

/**
 * One hash of a draft's content, used by approvals (what the owner saw) and by publishing
 * (what goes out), so the two can be compared: the publisher posts a scheduled draft only
 * while its content still hashes to the approved value.
 */
export const contentHashOf = (c: DraftContent): string => sha256({ title: c.title, body: c.body, image_url: c.imageUrl ?? null });

/**
 * Why a claimed draft must not go out, or null. A null approved hash belongs to a draft
 * scheduled before approvals recorded it, and is let through.
 */
export function contentChangedReason(d: DraftContent & { approvedContentHash: string | null }): string | null {
  if (d.approvedContentHash === null || contentHashOf(d) === d.approvedContentHash) return null;
  return "its content changed after the owner approved it (title, text or image differ from the approved version), so it was not posted. Review the draft and schedule it again; the owner approves the new content.";
}
