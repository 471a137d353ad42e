import { boolean, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb } from "./columns";

// A registered client (RFC 7591) or a command-line pseudo-client.
export const oauthClients = pgTable("oauth_clients", {
  id: id(),
  name: text("name").notNull(),
  redirectUris: jsonb("redirect_uris").$type<string[]>().notNull().default([]),
  tokenEndpointAuthMethod: text("token_endpoint_auth_method").notNull().default("none"),
  secretHash: text("secret_hash"),
  // Self-registered clients are shown as "Unverified" to the owner.
  selfRegistered: boolean("self_registered").notNull().default(true),
  // The registered metadata (RFC 7591), echoed back to the client.
  metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
  // A client identified by a Client ID Metadata Document: its https client_id, and until when
  // the fetched document may be reused (its HTTP caching headers).
  metadataUrl: text("metadata_url").unique(),
  metadataExpiresAt: at("metadata_expires_at"),
  createdAt: createdAt(),
});
