import { index, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, jsonb } from "./columns";
import { userRef } from "./owner-columns";

// A network sign-in under way (Bluesky's atproto OAuth): what the owner's browser comes back
// with, its `state`, stored hashed (as authorization codes are) with the owner who started it,
// so that only that owner's session can finish it, once, within minutes. `data` is what the
// OAuth client keeps until then: its PKCE verifier and the DPoP key the session will be bound to.
export const networkSignIns = pgTable(
  "network_sign_ins",
  {
    stateHash: text("state_hash").primaryKey(),
    userId: userRef(),
    network: text("network").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    expiresAt: at("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("network_sign_ins_expires_idx").on(t.expiresAt)],
);
