import type { Endpoint } from "../network";

// Every LinkedIn endpoint the adapter calls, with the scopes it needs. LinkedIn publishes no
// OpenAPI document: the scopes are from its Posts, Images, Documents, Social Actions and OpenID
// Connect pages (docs/platforms.md).

export const LINKEDIN_ENDPOINTS = {
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
} as const satisfies Record<string, Endpoint>;
