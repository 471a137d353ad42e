import { z } from "zod";
import { SUBSCRIBABLE } from "@/lib/domain/webhooks/events";
import { manageWebhooks } from "@/lib/domain/webhooks/endpoints";
import { defineOperation } from "../define";
import { NullableTimestamp, Timestamp, Uuid } from "../schemas";

const Url = z
  .url({ message: "Must be an absolute https URL" })
  .max(2000)
  .describe("https URL that receives the events (checked again, with its addresses, at every send)");
const Events = z
  .array(z.enum(SUBSCRIBABLE))
  .min(1, "Choose at least one event")
  .max(SUBSCRIBABLE.length)
  .describe("The events to receive (see the OpenAPI document's webhooks section)");
const Description = z.string().trim().max(200);

const Input = z.discriminatedUnion("action", [
  z.strictObject({ action: z.literal("create"), url: Url, events: Events, description: Description.optional() }),
  z.strictObject({
    action: z.literal("update"),
    webhook_id: Uuid,
    url: Url.optional(),
    events: Events.optional(),
    description: Description.nullable().optional(),
    paused: z.boolean().optional().describe("true pauses deliveries (they wait); false resumes"),
  }),
  z.strictObject({ action: z.literal("delete"), webhook_id: Uuid }),
  z.strictObject({ action: z.literal("rotate_secret"), webhook_id: Uuid }),
  z.strictObject({ action: z.literal("test"), webhook_id: Uuid }),
]);

export const WebhookOut = z.strictObject({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  status: z.enum(["active", "paused"]).describe("paused: nothing is sent (by the owner, an app, or the service after 3 days of failures)"),
  created_at: Timestamp,
  last_delivery_at: NullableTimestamp.describe("When it last answered a delivery with 2xx"),
});

export const manageWebhooksOp = defineOperation({
  name: "manage_webhooks",
  title: "Add, change, test or delete a webhook endpoint",
  summary: "Add, change, test or delete a webhook endpoint",
  description:
    "Manages the account's webhook endpoints, by action: create (url, events, description), update (url, events, description, paused), delete, " +
    "rotate_secret (a new signing secret; the previous one keeps signing for 24 hours), test (sends a webhook.test event to that endpoint). " +
    "Deliveries follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature headers) and are retried for 3 days. `secret` (whsec_...) " +
    "is returned only by create and rotate_secret, once: store it to verify signatures. URLs must be https and must not point at private addresses.",
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  input: Input,
  output: z.strictObject({
    webhook: WebhookOut,
    secret: z.string().nullable().describe("The signing secret (whsec_...), only after create and rotate_secret; else null"),
  }),
  run: (ctx, input) => manageWebhooks(ctx, input),
});
