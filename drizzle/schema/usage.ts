import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { userRef } from "./owner-columns";

// Plan allowances per user and calendar month (UTC): debited atomically by a conditional
// update, refunded when a generation fails.
export const allowancePeriods = pgTable(
  "allowance_periods",
  {
    userId: userRef(),
    period: text("period").notNull(), // YYYY-MM
    postsUsed: integer("posts_used").notNull().default(0),
    aiActionsUsed: integer("ai_actions_used").notNull().default(0),
    creditsUsed: integer("credits_used").notNull().default(0),
    // Posts read from X for their engagement (METRICS_X_READS_PER_MONTH).
    xReadsUsed: integer("x_reads_used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period] })],
);

// Every debit of AI credits, for analytics (credits this week, busiest day).
export const creditEvents = pgTable(
  "credit_events",
  {
    id: id(),
    userId: userRef(),
    operation: text("operation").notNull(),
    credits: integer("credits").notNull(),
    refundedAt: at("refunded_at"),
    createdAt: createdAt(),
  },
  (t) => [index("credit_events_user_idx").on(t.userId, t.createdAt)],
);
