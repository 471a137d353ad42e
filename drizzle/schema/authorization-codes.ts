import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb } from "./columns";
import { oauthClients } from "./oauth-clients";
import { appRef } from "./connected-apps";
import { userRef } from "./owner-columns";

// OAuth authorization codes: stored hashed, single use, short-lived, bound to the PKCE
// challenge, the exact redirect URI and the grant (connected app) they were issued for.
export const authorizationCodes = pgTable(
  "authorization_codes",
  {
    id: id(),
    codeHash: text("code_hash").notNull().unique(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    userId: userRef(),
    appId: appRef(),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    audience: jsonb("audience").$type<string[]>().notNull(),
    expiresAt: at("expires_at").notNull(),
    usedAt: at("used_at"),
    createdAt: createdAt(),
  },
  // By client as well: housekeeping keeps clients with a code, and deleting one cascades here.
  (t) => [index("authorization_codes_expires_idx").on(t.expiresAt), index("authorization_codes_client_idx").on(t.clientId)],
);
