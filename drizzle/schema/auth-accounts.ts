import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, createdAt, jsonb, updatedAt } from "./columns";

/** A window of the network's on an account's posts, as its last answer stated it. */
type PostWindowColumn = { limit: number | null; remaining: number; resetsAt: string };
/** X's 24-hour cap on an account's posts, and (`short`) its 15-minute one on creating posts. */
type PostAllowanceColumn = PostWindowColumn & { short?: PostWindowColumn };
import { userRef } from "./owner-columns";

// next-auth's accounts table (@auth/drizzle-adapter), which also holds the connections used
// for publishing (LinkedIn and X through next-auth's sign-in; Bluesky through atproto OAuth or
// with an app password, never stored: only the session's tokens are): their tokens, scopes and state.
export const authAccounts = pgTable(
  "auth_accounts",
  {
    userId: userRef(),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
    // Publishing: the handle shown to the owner, and whether the connection needs renewing.
    handle: text("handle"),
    // Where the account's network serves it, when that is the account's own (a Bluesky
    // account's PDS, from its DID document); null for networks with one address.
    serviceUrl: text("service_url"),
    status: text("status").$type<"connected" | "needs_reconnect">().notNull().default("connected"),
    // Only one token refresh per account at a time (X rotates refresh tokens).
    refreshLockedUntil: at("refresh_locked_until"),
    // Something the owner should know about this connection that is not an error of its own,
    // shown in account health (e.g. a configured LinkedIn-Version that LinkedIn has retired).
    notice: text("notice"),
    // What the network last said of its daily cap on posts (X: x-user-limit-24hour-*), shown in
    // account health: how many posts it still takes, and when the cap resets.
    postAllowance: jsonb("post_allowance").$type<PostAllowanceColumn>(),
    // A session made with atproto OAuth (type "oauth"): besides its tokens above, the private
    // DPoP key they are bound to and who issued them (the OAuth client's session, less its tokens).
    dpop: jsonb("dpop").$type<{ key: Record<string, unknown>; authMethod: unknown; iss: string; aud: string }>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] })],
);

export const authSessions = pgTable("auth_sessions", {
  sessionToken: text("session_token").primaryKey(),
  userId: userRef(),
  expires: at("expires").notNull(),
});

export const authVerificationTokens = pgTable(
  "auth_verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: at("expires").notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);
