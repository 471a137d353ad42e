import type { Db } from "@/lib/adapters/db";
import { config } from "@/lib/core/config";
import { MAX_TWEET_IMAGES } from "@/lib/domain/networks";
import { commonFailure, errorText, send } from "./http";
import { postParts } from "./parts";
import { authorized, refreshGrant, type Account } from "./tokens";
import { notePostAllowance } from "./allowance";
import { probe } from "./probe";
import { ENDPOINTS } from "@/lib/domain/networks/scopes";
import { requireScopes } from "./require-scopes";
import { xMedia } from "./x-media";
import { xMetrics } from "./x-metrics";
import { tweetReceipt } from "./tweet-receipt";
import { creditsBack, outOfCredits } from "./x-credits";
import { DuplicateRefusal, PublishError, type CommentRequest, type Platform, type Published, type PublishRequest } from "@/lib/domain/networks/platform";

const NET = "X";

/** How X's token and revocation endpoints authenticate this app (a confidential client): HTTP Basic. */
export const xAppAuth = () => {
  const c = config();
  return { authorization: `Basic ${Buffer.from(`${c.X_CLIENT_ID}:${c.X_CLIENT_SECRET}`).toString("base64")}` };
};

function refresher() {
  const c = config();
  return (refreshToken: string) =>
    refreshGrant(
      NET,
      `${c.X_API_URL.replace(/\/+$/, "")}/2/oauth2/token`,
      { grant_type: "refresh_token", refresh_token: refreshToken, client_id: c.X_CLIENT_ID! },
      xAppAuth(),
    );
}

/**
 * X API v2 (POST /2/tweets) with the OAuth 2.0 user token of `acc`: a tweet with its images,
 * a thread's further parts each replying to the part before, and a first comment replying to
 * the last part.
 * `db` keeps the connection's tokens (refreshed, or marked for reconnecting).
 */
export function x(acc: Account, db: Db): Platform {
  const api = config().X_API_URL.replace(/\/+$/, "");
  const who = (acc.target?.handle ?? acc.handle)?.replace(/^@/, "") || "i/web";
  /** One tweet: POST /2/tweets, with media already uploaded and the tweet it replies to. */
  const tweet = async (auth: ReturnType<typeof authorized>, text: string, mediaIds: string[], replyTo: string | null): Promise<Published> => {
    const res = await auth((token) =>
      send(NET, `${api}/2/tweets`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          text: text.normalize("NFC"),
          ...(mediaIds.length && { media: { media_ids: mediaIds } }),
          ...(replyTo && { reply: { in_reply_to_tweet_id: replyTo } }),
        }),
      }),
    );
    if (res.status === 201 || res.ok) {
      await notePostAllowance(db, acc, res);
      await creditsBack(db, acc);
      const body = (await res.json().catch(() => null)) as { data?: { id?: string } } | null;
      const id = body?.data?.id;
      // A tweet id is digits; anything else cannot be linked to or replied to (a thread's
      // next part), so the outcome is left for the owner to check.
      if (typeof id !== "string" || !/^\d{1,30}$/.test(id))
        throw new PublishError("unknown", "X accepted the tweet but returned no usable id; check the X account.");
      return { postId: id, url: `https://x.com/${who}/status/${id}` };
    }
    if (res.status === 402) throw await outOfCredits(db, acc, res);
    const common = await commonFailure(NET, res);
    if (common) throw common;
    const detail = await errorText(res);
    if (res.status === 403 && /duplicate/i.test(detail)) {
      throw new DuplicateRefusal("X refused it as a duplicate of a tweet already on the account");
    }
    throw new PublishError("failed", `X refused the tweet (${res.status}: ${detail}).`);
  };
  return {
    name: "micro",
    kind: "x",
    probe: () =>
      probe(NET, `${api}${ENDPOINTS.x.me.path}`, authorized(db, acc, refresher, NET), async (res) => {
        const who = ((await res.json().catch(() => null)) as { data?: { username?: string } } | null)?.data?.username;
        return who ? `answered as @${who}` : "answered";
      }),
    async publish(req: PublishRequest) {
      requireScopes("x", acc, req);
      // X access tokens live two hours: an expiring one is refreshed first.
      const auth = authorized(db, acc, refresher, NET);
      const upload = xMedia(api, auth);
      return postParts(req, async (k, replyTo, progress) => {
        const part = req.parts[k];
        if (part.media.length > MAX_TWEET_IMAGES)
          throw new PublishError("failed", `A tweet carries at most ${MAX_TWEET_IMAGES} images (this one has ${part.media.length}).`);
        if (part.media.length > 1 && part.media.some((m) => m.contentType === "image/gif" && (m.frames ?? 1) > 1))
          throw new PublishError("failed", "A tweet carries up to 4 images or one animated GIF, not both.");
        const mediaIds: string[] = [];
        for (const m of part.media) mediaIds.push(await progress.media(m, () => upload(m, req.now)));
        return tweet(auth, part.text, mediaIds, replyTo);
      });
    },
    async comment(req: CommentRequest) {
      requireScopes("x", acc, null);
      return tweet(authorized(db, acc, refresher, NET), req.text, [], req.on);
    },
    metrics: (req) => xMetrics(api, acc, authorized(db, acc, refresher, NET), db)(req),
    receipt: (req) => tweetReceipt(api, authorized(db, acc, refresher, NET))(req),
  };
}
