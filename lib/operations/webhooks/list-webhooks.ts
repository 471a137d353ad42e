import { z } from "zod";
import { listWebhooks } from "@/lib/domain/webhooks/endpoints";
import { defineOperation } from "../define";
import { Cursor, Limit, NextCursor } from "../schemas";
import { WebhookOut } from "./manage-webhooks";

export const listWebhooksOp = defineOperation({
  name: "list_webhooks",
  title: "List webhook endpoints",
  summary: "List webhook endpoints",
  description:
    "Lists the account's webhook endpoints, newest first: URL, subscribed events, description, status (active " +
    "or paused) and when one last received a delivery. Secrets are never listed (they are shown once, by " +
    "manage_webhooks create and rotate_secret). To add, change, pause, test or delete an endpoint use manage_webhooks.",
  // content:write like manage_webhooks: an endpoint's URL often carries the receiver's own
  // secret (Zapier and n8n hook URLs do), so reading them is not for read-only apps.
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ limit: Limit, cursor: Cursor.optional() }),
  output: z.strictObject({ webhooks: z.array(WebhookOut), next_cursor: NextCursor }),
  run: (ctx, input) => listWebhooks(ctx, input),
});
