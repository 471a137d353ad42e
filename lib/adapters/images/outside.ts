import type { Resolve } from "@/lib/core/outbound-resolve";
import type { OutsideImages } from "@/lib/domain/ports";
import { follow } from "@/lib/adapters/pages/open-graph";
import { checkedRequester } from "@/lib/adapters/webhooks/checked-request";

// An image someone named by its address (an import's image_urls), read as a link card's
// picture is: through the checked request (https, no private, loopback or metadata address
// unless the service itself runs on loopback; every redirect checked again), within the
// caller's time, and never more than its byte cap plus one: one byte past the cap says "too
// large" and the connection is closed, the rest unread. What the bytes are is the domain's
// question (sniffed and decoded as an upload is), not the answer's content-type.

const MB = 1024 * 1024;

export function outsideImages(opts: { resolve?: Resolve; origin?: () => string } = {}): OutsideImages {
  const request = checkedRequester(opts);
  return {
    fetch: async (url, { maxBytes, timeoutMs }) => {
      const got = await follow(url, {
        maxBytes: maxBytes + 1,
        accept: "image/png,image/jpeg,image/gif,image/webp",
        agent: "Contentio (image import)",
        timeoutMs,
        request,
      }).catch(() => null);
      if (!got) return { error: "it redirects too often, or to no address" };
      const a = got.answer;
      if (a.status === null) return { error: a.error };
      if (a.status >= 300 && a.status < 400) return { error: `it answered ${a.status} without a place to go` };
      if (a.status !== 200) return { error: `it answered ${a.status}` };
      if (a.body.length > maxBytes) return { error: `the image is larger than ${Math.round((maxBytes / MB) * 10) / 10} MB` };
      if (a.truncated) return { error: "the answer broke off" };
      return { bytes: new Uint8Array(a.body.buffer, a.body.byteOffset, a.body.byteLength) };
    },
  };
}
