import { boolean, index, pgTable, uuid } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb } from "./columns";
import { oauthClients } from "./oauth-clients";
import { userRef } from "./owner-columns";

// One grant of one client by one user: a row of Settings > Connections. Disconnecting sets
// revoked_at, which every token lookup checks, so all its tokens die on the next call.
export const connectedApps = pgTable(
  "connected_apps",
  {
    id: id(),
    userId: userRef(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: at("last_used_at"),
    revokedAt: at("revoked_at"),
    // The owner's choice to let this app confirm actions in its own window (MCP form
    // elicitation). Off by default: a form is answered by the client, which cannot prove that
    // a person answered it.
    trustsForms: boolean("trusts_forms").notNull().default(false),
  },
  // By client: housekeeping finds clients no grant names, and deleting one cascades here.
  (t) => [index("connected_apps_user_idx").on(t.userId), index("connected_apps_client_idx").on(t.clientId)],
);

/** For what an app did: its connected app (disconnecting cascades, as deleting the user does). */
export const appRef = () =>
  uuid("app_id")
    .notNull()
    .references(() => connectedApps.id, { onDelete: "cascade" });
