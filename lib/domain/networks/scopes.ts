import { network, type PlatformName } from "@/lib/domain/networks";

// Every endpoint the adapters call, with the OAuth scopes it needs: the one table that the
// sign-in request, the connection check, publishing and the tests read. X's scopes are the
// `security` of each operation in X's OpenAPI document (a test holds this table to it);
// LinkedIn publishes no such document: its scopes are from the Posts, Images, Documents, Social
// Actions and OpenID Connect pages (docs/platforms.md). Pure functions of the table and a stored grant, so
// the domain checks a connection's permissions without reaching an adapter.

/**
 * What a request is for: posting text, attaching media, checking the connection, a company
 * page's (listing, posting as it), or reading posts' engagement (`metrics`; LinkedIn's member
 * analytics is a product of its own, `analytics`).
 */
export type Need = "text" | "media" | "check" | "pages" | "metrics" | "analytics";

export type Endpoint = { method: "GET" | "POST" | "PUT"; path: string; scopes: readonly string[]; for: Need };

const X_MEDIA = ["media.write"] as const;

export const ENDPOINTS = {
  micro: {
    createPost: { method: "POST", path: "/2/tweets", scopes: ["tweet.read", "tweet.write", "users.read"], for: "text" },
    uploadImage: { method: "POST", path: "/2/media/upload", scopes: X_MEDIA, for: "media" },
    initializeUpload: { method: "POST", path: "/2/media/upload/initialize", scopes: X_MEDIA, for: "media" },
    appendUpload: { method: "POST", path: "/2/media/upload/{id}/append", scopes: X_MEDIA, for: "media" },
    finalizeUpload: { method: "POST", path: "/2/media/upload/{id}/finalize", scopes: X_MEDIA, for: "media" },
    uploadStatus: { method: "GET", path: "/2/media/upload", scopes: X_MEDIA, for: "media" },
    mediaMetadata: { method: "POST", path: "/2/media/metadata", scopes: X_MEDIA, for: "media" },
    me: { method: "GET", path: "/2/users/me", scopes: ["tweet.read", "users.read"], for: "check" },
    // Engagement of the account's own tweets (public_metrics; non_public_metrics for those of
    // the last 30 days), up to 100 ids a request.
    readPosts: { method: "GET", path: "/2/tweets", scopes: ["tweet.read", "users.read"], for: "metrics" },
  },
  pronet: {
    createPost: { method: "POST", path: "/rest/posts", scopes: ["w_member_social"], for: "text" },
    // A first comment (Network Update Social Actions: w_member_social is "post, comment and like
    // posts on behalf of an authenticated member").
    createComment: { method: "POST", path: "/rest/socialActions/{urn}/comments", scopes: ["w_member_social"], for: "text" },
    initializeImage: { method: "POST", path: "/rest/images", scopes: ["w_member_social"], for: "media" },
    initializeDocument: { method: "POST", path: "/rest/documents", scopes: ["w_member_social"], for: "media" },
    documentStatus: { method: "GET", path: "/rest/documents/{urn}", scopes: ["w_member_social"], for: "media" },
    userinfo: { method: "GET", path: "/v2/userinfo", scopes: ["openid", "profile", "email"], for: "check" },
    // Company pages (Community Management: Organization Access Control by Role, Organization
    // Lookup; posting, uploading and commenting as an organization need w_organization_social).
    organizationAcls: { method: "GET", path: "/rest/organizationAcls", scopes: ["rw_organization_admin"], for: "pages" },
    organization: { method: "GET", path: "/rest/organizations/{id}", scopes: ["rw_organization_admin"], for: "pages" },
    postAsOrganization: { method: "POST", path: "/rest/posts", scopes: ["w_organization_social"], for: "pages" },
    // Member Post Analytics: one metric of one of the member's posts a request.
    memberPostAnalytics: { method: "GET", path: "/rest/memberCreatorPostAnalytics", scopes: ["r_member_postAnalytics"], for: "analytics" },
    // A page's posts: Organization Share Statistics, several posts a request.
    pageShareStatistics: { method: "GET", path: "/rest/organizationalEntityShareStatistics", scopes: ["rw_organization_admin"], for: "pages" },
  },
} as const satisfies Record<PlatformName, Record<string, Endpoint>>;

/**
 * Asked for at sign-in beyond what the endpoints name: X's refresh token (`offline.access`:
 * its access tokens live two hours). LinkedIn's OpenID sign-in scopes are the userinfo
 * endpoint's; its refresh tokens go to approved partners only, whatever is asked.
 */
const SIGN_IN_EXTRA: Record<PlatformName, readonly string[]> = { micro: ["offline.access"], pronet: [] };

const union = (lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];
const endpointsOf = (p: PlatformName): Endpoint[] => Object.values(ENDPOINTS[p]);

/**
 * The scopes the sign-in with a network asks for: every endpoint's, checks first; company
 * pages' only with `pages`, LinkedIn's member analytics only with `analytics`.
 */
export function signInScopes(p: PlatformName, opts: { pages?: boolean; analytics?: boolean } = {}): string[] {
  const order: Need[] = ["check", "text", "media", "metrics", "pages", "analytics"];
  const sorted = endpointsOf(p)
    .filter((e) => (opts.pages || e.for !== "pages") && (opts.analytics || e.for !== "analytics"))
    .sort((a, b) => order.indexOf(a.for) - order.indexOf(b.for));
  return union([...sorted.map((e) => e.scopes), SIGN_IN_EXTRA[p]]);
}

/** The scopes publishing `needs` calls for (media implies text: a post is sent with it). */
export function scopesFor(p: PlatformName, needs: Need[]): string[] {
  return union(
    endpointsOf(p)
      .filter((e) => needs.includes(e.for))
      .map((e) => e.scopes),
  );
}

/**
 * The scopes a token response granted, as stored (`scope`): X separates them with spaces,
 * LinkedIn with commas. Null when the network said nothing: then nothing can be known.
 */
export function grantedScopes(scope: string | null | undefined): Set<string> | null {
  if (!scope?.trim()) return null;
  return new Set(scope.split(/[\s,]+/).filter(Boolean));
}

/** Which of the scopes `needs` calls for the stored grant lacks ([] when unknown or none). */
export function missingScopes(p: PlatformName, scope: string | null | undefined, needs: Need[]): string[] {
  const granted = grantedScopes(scope);
  return granted ? scopesFor(p, needs).filter((s) => !granted.has(s)) : [];
}

/** What a draft's content calls for: text, and media when it has images or a document. */
export const needsOf = (hasMedia: boolean): Need[] => (hasMedia ? ["text", "media"] : ["text"]);

/**
 * Why a connection granted `scope` cannot post content that `needs` this, or null. Said the
 * same way on the owner's pages, in an API error and in a failed draft's reason.
 */
export function scopeProblem(p: PlatformName, scope: string | null | undefined, needs: Need[]): string | null {
  const missing = missingScopes(p, scope, needs);
  if (!missing.length) return null;
  const { name } = network(p);
  const what = missingScopes(p, scope, ["text"]).length ? "post" : "post images or documents";
  return (
    `The ${name} connection was made without the permission to ${what} ` +
    `(${missing.join(", ")}); the owner must reconnect ${name} in Settings > Connections.`
  );
}
