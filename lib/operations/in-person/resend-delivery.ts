import { z } from "zod";
import { resendDelivery } from "@/lib/domain/webhooks/endpoints";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

export const resendDeliveryOp = defineOperation({
  name: "resend_delivery",
  title: "Send a webhook delivery again",
  summary: "Settings > Webhooks: Resend",
  description: "Sends one of the owner's webhook deliveries again, as a new delivery of the same event.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  input: z.strictObject({ delivery_id: z.string().max(100) }),
  output: z.strictObject({ resent: z.boolean().describe("False when the delivery is not (or no longer) the owner's") }),
  run: async (ctx, input) => ({ resent: await resendDelivery(ctx.db, ctx.caller.userId, input.delivery_id, ctx.now()) }),
});
