import type { Db } from "@/lib/db";
import { config } from "@/lib/config";
import { commonFailure, errorText, send } from "./http";
import { accessToken, markNeedsReconnect, refreshGrant, type Account } from "./tokens";
import { PublishError, type Platform, type PublishRequest } from "./types";

const NET = "LinkedIn";

/**
 * LinkedIn's "little text" format: these characters must be backslash-escaped in
 * `commentary`, or LinkedIn silently cuts the post at the first one.
 */
export function littleText(text: string): string {
  return text.replace(/[\\|{}@[\]()<>#*_~]/g, (c) => `\\${c}`);
}

function refresher() {
  const c = config();
  return (refreshToken: string) =>
    refreshGrant(NET, `${c.LINKEDIN_OAUTH_URL.replace(/\/+$/, "")}/oauth/v2/accessToken`, {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: c.LINKEDIN_CLIENT_ID!,
      client_secret: c.LINKEDIN_CLIENT_SECRET!,
    });
}

/** LinkedIn Posts API (POST /rest/posts) as the member whose connection `acc` is. */
/** `db` keeps the connection's tokens (refreshed, or marked for reconnecting). */
export function linkedin(acc: Account, db: Db): Platform {
  const c = config();
  const post = (token: string, text: string) =>
    send(NET, `${c.LINKEDIN_API_URL.replace(/\/+$/, "")}/rest/posts`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "linkedin-version": c.LINKEDIN_VERSION,
        "x-restli-protocol-version": "2.0.0",
        "content-type": "application/json",
      },
      body: JSON.stringify({
        // next-auth's LinkedIn (OpenID) provider stores the member's `sub` as the account id.
        author: `urn:li:person:${acc.providerAccountId}`,
        commentary: littleText(text),
        visibility: "PUBLIC",
        distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
        lifecycleState: "PUBLISHED",
        isReshareDisabledByAuthor: false,
      }),
    });
  return {
    name: "pronet",
    kind: "linkedin",
    async publish(req: PublishRequest) {
      let token = await accessToken(db, acc, acc.refresh_token ? refresher() : null, NET);
      let res = await post(token, req.text);
      if (res.status === 401) {
        // Refused before anything was created: renew once and try once more.
        token = await accessToken(db, acc, acc.refresh_token ? refresher() : null, NET, token);
        res = await post(token, req.text);
        if (res.status === 401) {
          await markNeedsReconnect(db, acc);
          throw new PublishError("failed", `LinkedIn refused the access token (revoked); the owner must reconnect LinkedIn in Settings > Connections.`);
        }
      }
      if (res.status === 201 || res.ok) {
        const urn = res.headers.get("x-restli-id");
        if (!urn) throw new PublishError("unknown", "LinkedIn accepted the post but returned no post id; check the LinkedIn feed.");
        return { postId: urn, url: `https://www.linkedin.com/feed/update/${urn}` };
      }
      const common = await commonFailure(NET, res);
      if (common) throw common;
      const text = await errorText(res);
      if (res.status === 422 && text.includes("DUPLICATE_POST")) {
        throw new PublishError("failed", "LinkedIn refused it as a duplicate of a post already on the account (DUPLICATE_POST); nothing new was posted.");
      }
      if (res.status === 403)
        throw new PublishError(
          "failed",
          `LinkedIn refused the post (403: ${text}); the connection may lack the w_member_social permission: reconnect LinkedIn.`,
        );
      throw new PublishError("failed", `LinkedIn refused the post (${res.status}: ${text}).`);
    },
  };
}
