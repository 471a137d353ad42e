import { uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

// The reference almost every table has: the user whose row it is (deleting the user deletes
// it). The connected app's reference (appRef) lives beside its table, connected-apps.ts.
export const userRef = () =>
  uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });
