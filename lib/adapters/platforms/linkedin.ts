import type { Db } from "@/lib/adapters/db";
import { config } from "@/lib/core/config";
import { send } from "./http";
import { linkedInMedia, linkedInRefusal, type LinkedInRest } from "./linkedin-media";
import { linkedInMetrics } from "./linkedin-metrics";
import { linkedInReceipt } from "./linkedin-receipt";
import { linkedInVersions } from "./linkedin-version";
import { postParts } from "./parts";
import { probe } from "./probe";
import { ENDPOINTS } from "@/lib/domain/networks/scopes";
import { requireScopes } from "./require-scopes";
import { authorized, refreshGrant, type Account } from "./tokens";
import { PublishError, type CommentRequest, type Platform, type PublishRequest } from "@/lib/domain/networks/platform";

const NET = "LinkedIn";

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WORD = /[\p{L}\p{N}_]/u;

/** Whether the `#` at `i` starts a hashtag: a letter or digit follows, and no word character precedes. */
function startsHashtag(text: string, i: number): boolean {
  const next = text.codePointAt(i + 1);
  const before = i > 0 ? String.fromCodePoint(text.codePointAt(i - 1)!) : "";
  return next !== undefined && LETTER_OR_DIGIT.test(String.fromCodePoint(next)) && !(before && WORD.test(before));
}

/**
 * LinkedIn's "little" text format (`commentary`): a reserved character must be
 * backslash-escaped to read as itself, or LinkedIn cuts the post at the first one; `#word`
 * is a hashtag. So every reserved character is escaped except a hashtag's `#` (`C#` and
 * `page#anchor` stay text), and the post reads on LinkedIn exactly as the draft does,
 * hashtags clickable (docs/platforms.md).
 */
export function littleText(text: string): string {
  return text.replace(/[\\|{}@[\]()<>#*_~]/g, (c, i: number) => (c === "#" && startsHashtag(text, i) ? c : `\\${c}`));
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

/** LinkedIn's versioned REST API for one task (a publish, a comment, a listing): one token and version for all its calls. */
export function linkedInSession(acc: Account, db: Db, now: Date) {
  const api = config().LINKEDIN_API_URL.replace(/\/+$/, "");
  const auth = authorized(db, acc, refresher, NET);
  const versions = linkedInVersions(db, acc, now);
  const rest: LinkedInRest = (path, body) =>
    versions((version) =>
      auth((token) =>
        send(NET, `${api}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "linkedin-version": version,
            "x-restli-protocol-version": "2.0.0",
            ...(body !== undefined && { "content-type": "application/json" }),
          },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        }),
      ),
    );
  return { auth, rest };
}

/**
 * LinkedIn Posts API (POST /rest/posts) as the member whose connection `acc` is, with images
 * (Images API) or a PDF document (Documents API). A LinkedIn post is one part; its first
 * comment goes through the Social Actions API.
 * `db` keeps the connection's tokens (refreshed, or marked for reconnecting) and its notice.
 */
export function linkedin(acc: Account, db: Db): Platform {
  const api = config().LINKEDIN_API_URL.replace(/\/+$/, "");
  // next-auth's LinkedIn (OpenID) provider stores the member's `sub` as the account id; a
  // page posts as its organization, with the token of the member who administers it.
  const author = acc.target?.kind === "organization" ? `urn:li:organization:${acc.target.externalId}` : `urn:li:person:${acc.providerAccountId}`;
  return {
    name: "pronet",
    kind: "linkedin",
    probe: () =>
      probe(NET, `${api}${ENDPOINTS.linkedin.userinfo.path}`, authorized(db, acc, refresher, NET), async (res) => {
        const who = ((await res.json().catch(() => null)) as { name?: string } | null)?.name;
        return who ? `answered as ${who}` : "answered";
      }),
    async publish(req: PublishRequest) {
      requireScopes("linkedin", acc, req);
      const { auth, rest } = linkedInSession(acc, db, req.now);
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
    async comment(req: CommentRequest) {
      requireScopes("linkedin", acc, null);
      // The message is text with attributes, not little text: nothing is escaped (Comments API).
      const path = ENDPOINTS.linkedin.createComment.path.replace("{urn}", encodeURIComponent(req.on));
      const res = await linkedInSession(acc, db, req.now).rest(path, { actor: author, object: req.on, message: { text: req.text } });
      if (res.status === 201 || res.ok) {
        const body = (await res.json().catch(() => null)) as { commentUrn?: string; $URN?: string } | null;
        const urn = body?.commentUrn ?? body?.$URN ?? res.headers.get("x-restli-id");
        if (!urn) throw new PublishError("unknown", "LinkedIn accepted the comment but returned no comment id; check the post's comments.");
        return { postId: urn, url: `https://www.linkedin.com/feed/update/${req.on}?commentUrn=${encodeURIComponent(urn)}` };
      }
      throw await linkedInRefusal(res, "comment");
    },
    metrics: (req) => linkedInMetrics(linkedInSession(acc, db, req.now).rest, acc.scope, author)(req),
    receipt: (req) => linkedInReceipt(linkedInSession(acc, db, req.now).rest)(req),
  };
}
