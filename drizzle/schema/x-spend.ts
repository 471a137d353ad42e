import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { at, id } from "./columns";
import { userRef } from "./owner-columns";
import { publishingAccounts } from "./publishing-accounts";

// What this service estimates X charged, one row per billed request: a post (a thread's part,
// a first comment) or a read of posts' engagement. X bills the developer account, not the
// user; the estimate is kept per publishing account so the owner sees a month per X account
// and can cap it (publishing_accounts.monthly_cap_micros). Micro-dollars ($0.20 = 200000).
export const xSpend = pgTable(
  "x_spend",
  {
    id: id(),
    userId: userRef(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => publishingAccounts.id, { onDelete: "cascade" }),
    kind: text("kind").$type<"post" | "read">().notNull(),
    // The draft a post belongs to (none for reads).
    draftType: text("draft_type").$type<"post" | "tweet">(),
    draftId: uuid("draft_id"),
    micros: integer("micros").notNull(),
    at: at("at").notNull().defaultNow(),
  },
  (t) => [index("x_spend_account_idx").on(t.accountId, t.at)],
);
