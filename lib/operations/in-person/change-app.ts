import { z } from "zod";
import { setAppTrustsForms } from "@/lib/domain/accounts/connections";
import { revokeApp } from "@/lib/domain/apps/tokens";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

export const changeAppOp = defineOperation({
  name: "change_app",
  title: "Disconnect a connected app, or trust its forms",
  summary: "Settings > Connections: Disconnect, Revoke, and the trust switch of an app",
  description:
    "Disconnects one of the owner's connected apps or personal tokens (its tokens stop working at once), or says whether an " +
    "approval answered in that app's own window counts (trusted apps only).",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  input: z.strictObject({ app_id: z.string().max(100), action: z.enum(["disconnect", "trust_forms", "distrust_forms"]) }),
  output: z.strictObject({ changed: z.boolean().describe("False when the app is not (or no longer) the owner's") }),
  run: async (ctx, { app_id, action }) => ({
    changed:
      action === "disconnect"
        ? await revokeApp(ctx.db, ctx.caller.userId, app_id, ctx.now())
        : await setAppTrustsForms(ctx.db, ctx.caller.userId, app_id, action === "trust_forms"),
  }),
});
