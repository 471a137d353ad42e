import type { Receipt, ReceiptRequest } from "@/lib/domain/networks/platform";
import type { LinkedInRest } from "./linkedin-media";
import { receiptOf, unchecked } from "./receipt";

const NET = "LinkedIn";

/**
 * A LinkedIn post read back: Posts API, Retrieve Posts (GET /rest/posts/{encoded URN}). LinkedIn
 * may accept a post (201) and drop it in post-processing: then the read answers 404, or the
 * post's lifecycleState is PROCESSING_FAILED. Reading a member's post needs r_member_social, a
 * permission LinkedIn gives few apps (a page's: r_organization_social); without it the read is
 * refused and the post is left as published.
 * learn.microsoft.com/linkedin/marketing/community-management/shares/posts-api
 */
export function linkedInReceipt(rest: LinkedInRest) {
  return (req: ReceiptRequest): Promise<Receipt> =>
    receiptOf(NET, async () => {
      const res = await rest(`/rest/posts/${encodeURIComponent(req.postId)}`);
      if (res.status === 404 || res.status === 410) return { state: "gone", said: `LinkedIn no longer has this post (${res.status} when it was read back)` };
      if (!res.ok)
        return unchecked(
          NET,
          res,
          "Reading posts back takes LinkedIn's r_member_social permission (r_organization_social for a page), which it grants few apps.",
        );
      const state = ((await res.json().catch(() => null)) as { lifecycleState?: unknown } | null)?.lifecycleState;
      if (state === "PROCESSING_FAILED") return { state: "gone", said: "LinkedIn no longer has this post (its processing failed after LinkedIn accepted it)" };
      return { state: "confirmed" };
    });
}
