import type { Db } from "@/lib/db";
import { config } from "@/lib/config";
import { send } from "./http";
import { linkedInMedia, linkedInRefusal, type LinkedInRest } from "./linkedin-media";
import { linkedInVersions } from "./linkedin-version";
import { postParts } from "./parts";
import { authorized, refreshGrant, type Account } from "./tokens";
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

/**
 * LinkedIn Posts API (POST /rest/posts) as the member whose connection `acc` is, with images
 * (Images API) or a PDF document (Documents API). A LinkedIn post is one part.
 * `db` keeps the connection's tokens (refreshed, or marked for reconnecting) and its notice.
 */
export function linkedin(acc: Account, db: Db): Platform {
  const api = config().LINKEDIN_API_URL.replace(/\/+$/, "");
  // next-auth's LinkedIn (OpenID) provider stores the member's `sub` as the account id.
  const author = `urn:li:person:${acc.providerAccountId}`;
  return {
    name: "pronet",
    kind: "linkedin",
    async publish(req: PublishRequest) {
      const auth = authorized(db, acc, refresher, NET);
      const versions = linkedInVersions(db, acc, req.now);
      const rest: LinkedInRest = (path, body) =>
        versions((version) =>
          auth((token) =>
            send(NET, `${api}${path}`, {
              method: "POST",
              headers: {
                authorization: `Bearer ${token}`,
                "linkedin-version": version,
                "x-restli-protocol-version": "2.0.0",
                "content-type": "application/json",
              },
              body: JSON.stringify(body),
            }),
          ),
        );
      const media = linkedInMedia(rest, auth, author, api);
      return postParts(req, async (k, _replyTo, progress) => {
        if (k > 0) throw new PublishError("failed", "LinkedIn posts have no thread parts; only the first part can be posted.");
        const content = await media.content(req, progress);
        const res = await rest("/rest/posts", {
          author,
          commentary: littleText(req.parts[0].text),
          visibility: "PUBLIC",
          distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: "PUBLISHED",
          isReshareDisabledByAuthor: false,
          ...(content && { content }),
        });
        if (res.status === 201 || res.ok) {
          const urn = res.headers.get("x-restli-id");
          if (!urn) throw new PublishError("unknown", "LinkedIn accepted the post but returned no post id; check the LinkedIn feed.");
          return { postId: urn, url: `https://www.linkedin.com/feed/update/${urn}` };
        }
        throw await linkedInRefusal(res, "post");
      });
    },
  };
}
