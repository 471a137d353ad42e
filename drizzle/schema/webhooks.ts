import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb, updatedAt } from "./columns";
import { connectedApps } from "./connected-apps";
import { userRef } from "./owner-columns";

export type WebhookEndpointStatus = "active" | "paused";
export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";

// An owner's webhook endpoint. Each has its own signing secret; after a rotation the
// previous one keeps signing until previous_secret_expires_at (a 24-hour overlap).
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    userId: userRef(),
    // The app that added it through manage_webhooks (null: the owner, in Settings).
    // Disconnecting that app pauses it: the app no longer learns what happens.
    appId: uuid("app_id").references(() => connectedApps.id, { onDelete: "set null" }),
    url: text("url").notNull(),
    events: jsonb("events").$type<string[]>().notNull(),
    description: text("description"),
    status: text("status").$type<WebhookEndpointStatus>().notNull().default("active"),
    // Why it is paused when the service paused it (failing for 3 days), null when the owner did.
    pausedReason: text("paused_reason"),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: at("previous_secret_expires_at"),
    // Since when every delivery has failed (null: the last one succeeded).
    failingSince: at("failing_since"),
    lastDeliveryAt: at("last_delivery_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId)],
);

// The outbox: one row per event, written in the same transaction as the change it reports.
// Its id is the stable webhook-id receivers de-duplicate on.
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: id(),
    userId: userRef(),
    type: text("type").notNull(),
    // Events about one draft are delivered in order; null for events about no draft.
    subject: text("subject"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_events_user_idx").on(t.userId, t.createdAt)],
);

// One event to one endpoint: sent until it succeeds or 3 days have passed.
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: at("next_attempt_at").notNull().defaultNow(),
    // While one deliverer is sending it (others skip it until then).
    lockedUntil: at("locked_until"),
    lastAttemptAt: at("last_attempt_at"),
    lastResponseCode: integer("last_response_code"),
    lastError: text("last_error"),
    deliveredAt: at("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

// Every attempt to send a delivery: the per-endpoint delivery log in Settings.
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: id(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    responseCode: integer("response_code"),
    // A short, plain-text summary (never the raw response body).
    error: text("error"),
    durationMs: integer("duration_ms"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_attempts_endpoint_idx").on(t.endpointId, t.createdAt)],
);
