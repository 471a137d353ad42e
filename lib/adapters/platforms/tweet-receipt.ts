import type { Receipt, ReceiptRequest } from "@/lib/domain/networks/platform";
import { send } from "./http";
import { receiptOf, unchecked } from "./receipt";
import type { authorized } from "./tokens";

const NET = "X";
const NOT_FOUND = /\/2\/problems\/resource-not-found$/;

/**
 * A tweet read back as its author: GET /2/tweets/{id} (X's OpenAPI document: getPostsById,
 * tweet.read users.read). X answers a deleted tweet 200 with a resource-not-found problem and no
 * `data` (or 404): gone.
 */
export function tweetReceipt(api: string, auth: ReturnType<typeof authorized>) {
  return (req: ReceiptRequest): Promise<Receipt> =>
    receiptOf(NET, async () => {
      const res = await auth((token) =>
        send(NET, `${api}/2/tweets/${encodeURIComponent(req.postId)}`, { method: "GET", headers: { authorization: `Bearer ${token}` } }),
      );
      if (res.status === 404) return { state: "gone", said: "X no longer has this tweet (404 when it was read back)" };
      if (!res.ok) return unchecked(NET, res, "Reading tweets back takes the tweet.read and users.read permissions.");
      const body = ((await res.json().catch(() => null)) ?? {}) as { data?: { id?: string }; errors?: { type?: string; detail?: string }[] };
      if (body.data?.id === req.postId) return { state: "confirmed" };
      const gone = body.errors?.find((e) => NOT_FOUND.test(e.type ?? ""));
      if (gone) return { state: "gone", said: `X no longer has this tweet (${String(gone.detail ?? "not found").slice(0, 200)})` };
      return { state: "unchecked", reason: "X's answer did not include this tweet." };
    });
}
