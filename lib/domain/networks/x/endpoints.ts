import type { Endpoint } from "../network";

// Every X endpoint the adapter calls, with the scopes it needs: the `security` of each
// operation in X's OpenAPI document (a test holds this table to it).

const X_MEDIA = ["media.write"] as const;

export const X_ENDPOINTS = {
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
} as const satisfies Record<string, Endpoint>;
