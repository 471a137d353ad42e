import { boolean, pgTable, uuid } from "drizzle-orm/pg-core";
import { jsonb, updatedAt } from "./columns";
import { userRef } from "./owner-columns";
import { publishingAccounts } from "./publishing-accounts";

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
/** A weekly posting time, on the owner's wall clock ("09:00" on Mondays in their time zone). */
export type QueueSlot = { weekday: Weekday; time: string };

// An account's posting queue: weekly slots in the owner's time zone that `schedule_content`
// with `slot: "next"` fills in order, one draft a slot. Changing the slots moves nothing
// already scheduled.
export const postingQueues = pgTable("posting_queues", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => publishingAccounts.id, { onDelete: "cascade" }),
  userId: userRef(),
  slots: jsonb("slots").$type<QueueSlot[]>().notNull().default([]),
  paused: boolean("paused").notNull().default(false),
  updatedAt: updatedAt(),
});
