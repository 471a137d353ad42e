import { uuid } from "drizzle-orm/pg-core";
import { connectedApps } from "./connected-apps";
import { users } from "./users";

// The two references almost every table has: the user whose row it is (deleting the user
// deletes it) and, for what an app did, the connected app (disconnecting cascades likewise).
export const userRef = () =>
  uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });
export const appRef = () =>
  uuid("app_id")
    .notNull()
    .references(() => connectedApps.id, { onDelete: "cascade" });
