import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb, updatedAt } from "./columns";
import { appRef } from "./connected-apps";
import { userRef } from "./owner-columns";

export type McpTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

// An MCP task (io.modelcontextprotocol/tasks): a tool call that may outlast its request.
// Stored so its status and result survive a restart and can be read from any process.
export const mcpTasks = pgTable(
  "mcp_tasks",
  {
    id: id(),
    userId: userRef(),
    appId: appRef(),
    tool: text("tool").notNull(),
    arguments: jsonb("arguments").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status").$type<McpTaskStatus>().notNull().default("working"),
    statusMessage: text("status_message"),
    // The tool's CallToolResult once completed or failed.
    result: jsonb("result").$type<Record<string, unknown>>(),
    ttlMs: integer("ttl_ms"),
    pollIntervalMs: integer("poll_interval_ms"),
    expiresAt: at("expires_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("mcp_tasks_user_idx").on(t.userId, t.createdAt), index("mcp_tasks_expires_idx").on(t.expiresAt)],
);
