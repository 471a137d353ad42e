import { boolean, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { at, updatedAt } from "./columns";
import { users } from "./users";
import { userRef } from "./owner-columns";

export type NotificationKind = "failed" | "unknown" | "approval" | "expiring";

// Which e-mails the owner wants (no row: all of them), when SMTP_URL is set.
export const notificationSettings = pgTable("notification_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  failed: boolean("failed").notNull().default(true),
  unknown: boolean("unknown").notNull().default(true),
  approval: boolean("approval").notNull().default(true),
  expiring: boolean("expiring").notNull().default(true),
  updatedAt: updatedAt(),
});

// One row per event e-mailed (its key names the event), so each is sent once, by whichever
// process saw it first.
export const notificationsSent = pgTable(
  "notifications_sent",
  {
    userId: userRef(),
    eventKey: text("event_key").notNull(),
    kind: text("kind").$type<NotificationKind>().notNull(),
    sentAt: at("sent_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.eventKey] })],
);
