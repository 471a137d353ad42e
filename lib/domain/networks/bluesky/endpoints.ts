import type { Endpoint } from "../network";

// Every XRPC method the Bluesky adapter calls: on the account's PDS (lexicons of
// com.atproto.server, .repo and .identity), and getPosts on the AppView (BLUESKY_APPVIEW_URL),
// which answers without a session. A session made with an app password carries no scopes, one
// made with atproto OAuth `atproto transition:generic`: either may do all of these, and nothing
// an app password is denied (its account settings).

export const BLUESKY_ENDPOINTS = {
  createSession: { method: "POST", path: "/xrpc/com.atproto.server.createSession", scopes: [], for: "check" },
  refreshSession: { method: "POST", path: "/xrpc/com.atproto.server.refreshSession", scopes: [], for: "check" },
  getSession: { method: "GET", path: "/xrpc/com.atproto.server.getSession", scopes: [], for: "check" },
  resolveHandle: { method: "GET", path: "/xrpc/com.atproto.identity.resolveHandle", scopes: [], for: "text" },
  createRecord: { method: "POST", path: "/xrpc/com.atproto.repo.createRecord", scopes: [], for: "text" },
  getRecord: { method: "GET", path: "/xrpc/com.atproto.repo.getRecord", scopes: [], for: "text" },
  uploadBlob: { method: "POST", path: "/xrpc/com.atproto.repo.uploadBlob", scopes: [], for: "media" },
  getPosts: { method: "GET", path: "/xrpc/app.bsky.feed.getPosts", scopes: [], for: "metrics" },
} as const satisfies Record<string, Endpoint>;
