import { z } from "zod";
import { setPublishingAllowed } from "@/lib/domain/accounts/connections";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

export const setPublishingOp = defineOperation({
  name: "set_publishing",
  title: "Allow connected apps to publish, schedule and delete",
  summary: "Settings > Connections: the owner's switch for connected apps",
  description: "Turns the owner's switch for connected apps on or off; off also ends the apps' open approval requests.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ allowed: z.boolean() }),
  output: z.strictObject({ allowed: z.boolean() }),
  run: async (ctx, { allowed }) => {
    await setPublishingAllowed(ctx.db, ctx.caller.userId, allowed);
    return { allowed };
  },
});
