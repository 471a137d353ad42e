import { sql } from "drizzle-orm";
import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb } from "./columns";
import { appRef } from "./connected-apps";
import { userRef } from "./owner-columns";

export type TokenKind = "access" | "refresh";

// Opaque bearer tokens. Only the SHA-256 of the token is stored: a leaked table grants nothing.
export const tokens = pgTable(
  "tokens",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    kind: text("kind").$type<TokenKind>().notNull(),
    appId: appRef(),
    userId: userRef(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    // Resource URLs (RFC 8707) this token may be presented to.
    audience: jsonb("audience").$type<string[]>().notNull(),
    expiresAt: at("expires_at").notNull(),
    revokedAt: at("revoked_at"),
    // Refresh tokens rotate: set when this one was exchanged for a new pair.
    rotatedAt: at("rotated_at"),
    // The authorization code this token came from (a reused code revokes them).
    codeId: uuid("code_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("tokens_app_idx").on(t.appId),
    // A code used again revokes what it issued; housekeeping keeps a code while any of it lives.
    index("tokens_code_idx")
      .on(t.codeId)
      .where(sql`${t.codeId} is not null`),
    // Housekeeping finds what expired without reading the whole table.
    index("tokens_expires_idx").on(t.expiresAt),
  ],
);
