import { commonFailure, errorText, send } from "./http";
import type { Uploaded } from "./parts";
import { untilProcessed, type ProcessingState } from "./processing";
import { PublishError, type MediaItem } from "@/lib/domain/networks/platform";
import type { Answer } from "./request";

// X API v2 media as X documents it (its OpenAPI document; docs.x.com, media best practices):
// images in one request (POST /2/media/upload, media_category tweet_image); animated GIFs,
// which X processes after upload, through the chunked upload (initialize, append, finalize,
// category tweet_gif) and then the status until processing succeeded; alt text through
// POST /2/media/metadata. A tweet carries up to 4 images, or one animated GIF.

const NET = "X";
const ALT_MAX = 1000;
/** Bytes per appended segment (X takes segments of up to 5 MB). */
const SEGMENT_BYTES = 4 * 1024 * 1024;

type Auth = (call: (token: string) => Promise<Answer>) => Promise<Answer>;
type MediaData = { id?: string; expires_after_secs?: number; processing_info?: { state?: string; check_after_secs?: number } };

/** Whether an image is an animation (a GIF of more than one frame): X takes those as tweet_gif. */
export async function isAnimated(m: MediaItem, bytes: Uint8Array): Promise<boolean> {
  if (m.contentType !== "image/gif") return false;
  if (m.frames !== null) return m.frames > 1;
  // Uploaded before frames were counted: the bytes say.
  const { default: sharp } = await import("sharp");
  const meta = await sharp(bytes, { animated: true })
    .metadata()
    .catch(() => null);
  return (meta?.pages ?? 1) > 1;
}

/** Why X refused a media request, classified (an upload alone posts nothing). */
async function refusal(res: Answer, what: string): Promise<PublishError> {
  return (await commonFailure(NET, res)) ?? new PublishError("failed", `X refused the ${what} (${res.status}: ${await errorText(res)}).`);
}

const dataOf = async (res: Answer) => ((await res.json().catch(() => null)) as { data?: MediaData } | null)?.data;

/** X's processing_info as a state; none means there is nothing to wait for. */
function stateOf(data: MediaData | undefined): ProcessingState {
  const info = data?.processing_info;
  if (!info?.state || info.state === "succeeded") return { state: "ready" };
  if (info.state === "failed") return { state: "failed", reason: "X reported the processing as failed" };
  const after = Number(info.check_after_secs);
  return { state: "processing", checkAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : undefined };
}

/** Returns X's media id of `m`, uploaded, processed and described; `now` dates its expiry. */
export function xMedia(api: string, auth: Auth) {
  const json = (path: string, body: unknown) =>
    auth((token) =>
      send(NET, `${api}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  // A fresh form per try: the renewed-token retry must send the same body again.
  const form = (path: string, fields: Record<string, string | Blob>) =>
    auth((token) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) {
        if (v instanceof Blob) f.append(k, v, "media");
        else f.append(k, v);
      }
      return send(NET, `${api}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: f });
    });
  const blob = (bytes: Uint8Array, type: string) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type });

  const image = async (m: MediaItem, bytes: Uint8Array) => {
    const res = await form("/2/media/upload", { media: blob(bytes, m.contentType), media_category: "tweet_image" });
    if (!res.ok) throw await refusal(res, "image upload");
    return dataOf(res);
  };

  const gif = async (m: MediaItem, bytes: Uint8Array) => {
    const init = await json("/2/media/upload/initialize", { media_type: m.contentType, total_bytes: bytes.length, media_category: "tweet_gif" });
    if (!init.ok) throw await refusal(init, "GIF upload");
    const id = (await dataOf(init))?.id;
    if (!id || !/^\d{1,19}$/.test(id)) throw new PublishError("retry", "X answered the GIF upload without a media id.");
    for (let k = 0, at = 0; at < bytes.length; k++, at += SEGMENT_BYTES) {
      const res = await form(`/2/media/upload/${id}/append`, { media: blob(bytes.subarray(at, at + SEGMENT_BYTES), m.contentType), segment_index: String(k) });
      if (!res.ok) throw await refusal(res, "GIF upload");
    }
    const done = await auth((token) => send(NET, `${api}/2/media/upload/${id}/finalize`, { method: "POST", headers: { authorization: `Bearer ${token}` } }));
    if (!done.ok) throw await refusal(done, "GIF upload");
    const data = await dataOf(done);
    await untilProcessed(
      NET,
      "GIF",
      async () => {
        const res = await auth((token) =>
          send(NET, `${api}/2/media/upload?media_id=${id}&command=STATUS`, { method: "GET", headers: { authorization: `Bearer ${token}` } }),
        );
        if (!res.ok) throw await refusal(res, "GIF's processing status");
        return stateOf(await dataOf(res));
      },
      stateOf(data),
    );
    return { ...data, id };
  };

  return async (m: MediaItem, now: Date): Promise<Uploaded> => {
    if (!m.contentType.startsWith("image/")) throw new PublishError("failed", `X takes images in tweets, not ${m.contentType}.`);
    const bytes = await m.bytes();
    const data = (await isAnimated(m, bytes)) ? await gif(m, bytes) : await image(m, bytes);
    const id = data?.id;
    if (!id) throw new PublishError("retry", "X answered the image upload without a media id.");
    if (m.altText) {
      const meta = await json("/2/media/metadata", { id, metadata: { alt_text: { text: m.altText.slice(0, ALT_MAX) } } });
      if (!meta.ok) throw await refusal(meta, "image description (alt text)");
    }
    // X forgets an unused upload (a day for images): a resume after that uploads again.
    const ttl = Number(data?.expires_after_secs);
    return { id, expiresAt: Number.isFinite(ttl) && ttl > 0 ? new Date(now.getTime() + ttl * 1000) : undefined };
  };
}
