import { z } from "zod";
import { setGettingStartedHidden } from "@/lib/domain/owner/getting-started";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

export const setGettingStartedOp = defineOperation({
  name: "set_getting_started",
  title: "Put the getting-started list away, or bring it back",
  summary: "Content and Profile: whether the first-run checklist shows on Content",
  description: "Hides the owner's getting-started list from the Content page (it stays under Profile), or shows it there again.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ hidden: z.boolean() }),
  output: z.strictObject({ hidden: z.boolean() }),
  run: async (ctx, input) => {
    await setGettingStartedHidden(ctx.db, ctx.caller.userId, input.hidden);
    return { hidden: input.hidden };
  },
});
