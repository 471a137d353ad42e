import { z } from "zod";
import { setNotificationSettings } from "@/lib/domain/owner/notifications";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

export const setNotificationsOp = defineOperation({
  name: "set_notifications",
  title: "Choose the owner's e-mails",
  summary: "Settings > Connections: which events the owner is e-mailed about",
  description: "Turns each kind of e-mail to the owner on or off: a failed post, an unconfirmed one, an app's approval request, a connection about to expire.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ failed: z.boolean(), unknown: z.boolean(), approval: z.boolean(), expiring: z.boolean() }),
  output: z.strictObject({ saved: z.literal(true) }),
  run: async (ctx, input) => {
    await setNotificationSettings(ctx.db, ctx.caller.userId, input);
    return { saved: true as const };
  },
});
