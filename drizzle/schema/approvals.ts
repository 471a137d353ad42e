import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { at, createdAt, id } from "./columns";
import { connectedApps } from "./connected-apps";
import { users } from "./users";

export type ApprovalStatus = "pending" | "approved" | "denied" | "used";
export type ApprovalAction = {
  operation: string;
  type: string;
  id: string;
  title: string;
  scheduled_for: string | null;
};

// The owner's approval of one exact action (contract section 4). It matches only the same
// user, app, operation, arguments (args_hash) and draft content (content_hash), once.
export const approvals = pgTable(
  "approvals",
  {
    id: id(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    appId: uuid("app_id").notNull().references(() => connectedApps.id, { onDelete: "cascade" }),
    operation: text("operation").notNull(),
    argsHash: text("args_hash").notNull(),
    contentHash: text("content_hash").notNull(),
    action: jsonb("action").$type<ApprovalAction>().notNull(),
    // The full text as it will be acted on, shown on the approval page.
    body: text("body").notNull(),
    status: text("status").$type<ApprovalStatus>().notNull().default("pending"),
    expiresAt: at("expires_at").notNull(),
    decidedAt: at("decided_at"),
    usedAt: at("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("approvals_lookup_idx").on(t.userId, t.appId, t.operation, t.argsHash)],
);
