import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, jsonb } from "./columns";
import { userRef } from "./owner-columns";

// Idempotency-Key records: the first response to (user, key) is replayed for 24 hours.
// A row with a null response is a request still in progress.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: userRef(),
    key: text("key").notNull(),
    operation: text("operation").notNull(),
    requestHash: text("request_hash").notNull(),
    response: jsonb("response"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
