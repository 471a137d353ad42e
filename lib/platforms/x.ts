import type { Db } from "@/lib/db";
import { config } from "@/lib/config";
import { commonFailure, errorText, send } from "./http";
import { accessToken, markNeedsReconnect, refreshGrant, type Account } from "./tokens";
import { PublishError, type Platform, type PublishRequest } from "./types";

const NET = "X";

function refresher() {
  const c = config();
  const basic = Buffer.from(`${c.X_CLIENT_ID}:${c.X_CLIENT_SECRET}`).toString("base64");
  return (refreshToken: string) =>
    refreshGrant(
      NET,
      `${c.X_API_URL.replace(/\/+$/, "")}/2/oauth2/token`,
      { grant_type: "refresh_token", refresh_token: refreshToken, client_id: c.X_CLIENT_ID! },
      { authorization: `Basic ${basic}` },
    );
}

/** X API v2 (POST /2/tweets) with the OAuth 2.0 user token of `acc`. */
/** `db` keeps the connection's tokens (refreshed, or marked for reconnecting). */
export function x(acc: Account, db: Db): Platform {
  const c = config();
  const tweet = (token: string, text: string) =>
    send(NET, `${c.X_API_URL.replace(/\/+$/, "")}/2/tweets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ text }),
    });
  return {
    name: "micro",
    kind: "x",
    async publish(req: PublishRequest) {
      const text = req.text.normalize("NFC");
      // X access tokens live two hours: an expiring one is refreshed first.
      let token = await accessToken(db, acc, acc.refresh_token ? refresher() : null, NET);
      let res = await tweet(token, text);
      if (res.status === 401) {
        token = await accessToken(db, acc, acc.refresh_token ? refresher() : null, NET, token);
        res = await tweet(token, text);
        if (res.status === 401) {
          await markNeedsReconnect(db, acc);
          throw new PublishError("failed", "X refused the access token (revoked); the owner must reconnect X in Settings > Connections.");
        }
      }
      if (res.status === 201 || res.ok) {
        const body = (await res.json().catch(() => null)) as { data?: { id?: string } } | null;
        const id = body?.data?.id;
        if (!id) throw new PublishError("unknown", "X accepted the tweet but returned no id; check the X account.");
        const who = acc.handle?.replace(/^@/, "") || "i/web";
        return { postId: id, url: `https://x.com/${who}/status/${id}` };
      }
      const common = await commonFailure(NET, res);
      if (common) throw common;
      const detail = await errorText(res);
      if (res.status === 403 && /duplicate/i.test(detail)) {
        throw new PublishError("failed", "X refused it as a duplicate of a tweet already on the account; nothing new was posted.");
      }
      throw new PublishError("failed", `X refused the tweet (${res.status}: ${detail}).`);
    },
  };
}
