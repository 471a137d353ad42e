import { sql } from "drizzle-orm";
import { boolean, foreignKey, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { authAccounts } from "./auth-accounts";
import { userRef } from "./owner-columns";

/** A person (the member or user who signed in) or an organization page that person administers. */
export type AccountKind = "person" | "organization";

// Where an owner's drafts can go: each network may have several (LinkedIn members and the
// company pages they administer, X users), one of them the network's default. Each posts with
// the tokens of a connection (auth_accounts): a person's own, a page's administering member's;
// disconnecting that connection removes the accounts it carried.
export const publishingAccounts = pgTable(
  "publishing_accounts",
  {
    id: id(),
    userId: userRef(),
    platform: text("platform").$type<"pronet" | "micro">().notNull(),
    kind: text("kind").$type<AccountKind>().notNull(),
    // The network's id of the account: a member's or user's id, an organization's number.
    externalId: text("external_id").notNull(),
    name: text("name"),
    handle: text("handle"),
    isDefault: boolean("is_default").notNull().default(false),
    // X only: the most the owner lets this account spend on X in a calendar month (UTC), in
    // micro-dollars; null: no cap. Publishing and metrics reads that would pass it are refused.
    monthlyCapMicros: integer("monthly_cap_micros"),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({ columns: [t.provider, t.providerAccountId], foreignColumns: [authAccounts.provider, authAccounts.providerAccountId] }).onDelete("cascade"),
    uniqueIndex("publishing_accounts_user_external_idx").on(t.userId, t.platform, t.kind, t.externalId),
    // At most one default a network.
    uniqueIndex("publishing_accounts_default_idx")
      .on(t.userId, t.platform)
      .where(sql`is_default`),
    index("publishing_accounts_connection_idx").on(t.provider, t.providerAccountId),
  ],
);
