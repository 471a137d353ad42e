import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { approvals } from "./approvals";
import { at, createdAt, id, jsonb } from "./columns";
import { appRef } from "./connected-apps";
import { userRef } from "./owner-columns";

export type ElicitationMode = "form" | "url";
export type ElicitationStatus = "open" | "answered" | "cancelled" | "closed";

// An elicitation the MCP server itself sent about an approval. A client's answer counts only
// when it names one of these rows, carries its secret (stored hashed), comes from the same
// user, app and MCP session, and arrives once, before the row expires.
export const elicitations = pgTable(
  "elicitations",
  {
    id: id(),
    approvalId: uuid("approval_id")
      .notNull()
      .references(() => approvals.id, { onDelete: "cascade" }),
    userId: userRef(),
    appId: appRef(),
    // The signed MCP session's own random id: answers from another session do not count.
    session: text("session").notNull(),
    // The JSON-RPC id of the tool call waiting on it (so notifications/cancelled can end the wait).
    toolRequestId: jsonb("tool_request_id").$type<string | number>().notNull(),
    mode: text("mode").$type<ElicitationMode>().notNull(),
    secretHash: text("secret_hash").notNull(),
    status: text("status").$type<ElicitationStatus>().notNull().default("open"),
    expiresAt: at("expires_at").notNull(),
    answeredAt: at("answered_at"),
    createdAt: createdAt(),
  },
  (t) => [index("elicitations_user_status_idx").on(t.userId, t.status), index("elicitations_expires_idx").on(t.expiresAt)],
);
