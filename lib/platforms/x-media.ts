import { commonFailure, errorText, send } from "./http";
import type { Uploaded } from "./parts";
import { PublishError, type MediaItem } from "./types";
import type { Answer } from "./request";

const NET = "X";
export const MAX_TWEET_IMAGES = 4;
const ALT_MAX = 1000;

/** Why X refused a media request, classified (an upload alone posts nothing). */
async function refusal(res: Answer, what: string): Promise<PublishError> {
  return (await commonFailure(NET, res)) ?? new PublishError("failed", `X refused the ${what} (${res.status}: ${await errorText(res)}).`);
}

/**
 * X API v2 media: the one-shot upload (POST /2/media/upload, multipart: the bytes as `media`,
 * and `media_category`), then the alt text (POST /2/media/metadata). Returns X's media id.
 */
export function xMedia(api: string, auth: (call: (token: string) => Promise<Answer>) => Promise<Answer>) {
  return async (m: MediaItem, now: Date): Promise<Uploaded> => {
    if (!m.contentType.startsWith("image/")) throw new PublishError("failed", `X takes images in tweets, not ${m.contentType}.`);
    const bytes = await m.bytes();
    const category = m.contentType === "image/gif" ? "tweet_gif" : "tweet_image";
    // A fresh form per try: the renewed-token retry must send the same body again.
    const res = await auth((token) => {
      const form = new FormData();
      form.append("media", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: m.contentType }), "media");
      form.append("media_category", category);
      return send(NET, `${api}/2/media/upload`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
    });
    if (!res.ok) throw await refusal(res, "image upload");
    const data = ((await res.json().catch(() => null)) as { data?: { id?: string; expires_after_secs?: number } } | null)?.data;
    const id = data?.id;
    if (!id) throw new PublishError("retry", "X answered the image upload without a media id.");
    if (m.altText) {
      const meta = await auth((token) =>
        send(NET, `${api}/2/media/metadata`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ id, metadata: { alt_text: { text: m.altText!.slice(0, ALT_MAX) } } }),
        }),
      );
      if (!meta.ok) throw await refusal(meta, "image description (alt text)");
    }
    // X forgets an unused upload (a day for images): a resume after that uploads again.
    const ttl = Number(data?.expires_after_secs);
    return { id, expiresAt: Number.isFinite(ttl) && ttl > 0 ? new Date(now.getTime() + ttl * 1000) : undefined };
  };
}
