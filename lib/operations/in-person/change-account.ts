import { z } from "zod";
import { disconnectAccount, setDefaultAccount } from "@/lib/domain/accounts/accounts";
import { invalid } from "@/lib/core/errors";
import { micros } from "@/lib/domain/networks/x/pricing";
import { onX, ownAccount, setMonthlyCap } from "@/lib/domain/spend/x-spend";
import { defineOperation } from "../define";
import { Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const changeAccountOp = defineOperation({
  name: "change_account",
  title: "Make an account the default, disconnect it, or cap its monthly spend on X",
  summary: "Settings > Connections: Make default, Disconnect, Monthly cap on X",
  description:
    "Makes one of the owner's publishing accounts their network's default, or disconnects it: what was scheduled to it becomes " +
    "drafts again, so nothing goes to an account the owner removed, nor to another one they did not approve; its session on the " +
    "network is ended where the network offers that (Bluesky). For an X account, " +
    "set_monthly_cap sets the most it may spend on X in a calendar month (UTC, in dollars; null removes the cap): a publish or a " +
    "metrics read that would pass it is refused before anything is sent to X.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  input: z
    .strictObject({
      account_id: Uuid,
      action: z.enum(["make_default", "disconnect", "set_monthly_cap"]),
      monthly_cap_usd: z.number().min(0).max(100_000).nullable().optional().describe("set_monthly_cap: dollars a calendar month (UTC); null: no cap"),
    })
    .superRefine((v, ctx) => {
      if ((v.action === "set_monthly_cap") !== (v.monthly_cap_usd !== undefined))
        ctx.addIssue({ code: "custom", path: ["monthly_cap_usd"], message: "monthly_cap_usd comes with set_monthly_cap, and only with it" });
    }),
  output: z.strictObject({ changed: z.boolean().describe("False when the account is not (or no longer) the owner's") }),
  run: async (ctx, input) => {
    if (input.action === "make_default") return { changed: await setDefaultAccount(ctx.db, ctx.caller.userId, input.account_id) };
    if (input.action === "disconnect") {
      const done = await disconnectAccount(ctx.db, ctx.caller.userId, input.account_id);
      // Once it is gone here: the network's session ended too, where the network can.
      if (done && done.removed) await ctx.ports.platforms.signOut(done.removed);
      return { changed: !!done };
    }
    const a = await ownAccount(ctx.db, ctx.caller.userId, input.account_id);
    if (!a) return { changed: false };
    // X charges per request; other networks charge nothing this service knows of.
    if (!onX(a)) throw invalid([{ path: "account_id", message: "A monthly cap is for X accounts: X charges for each post and read" }]);
    await setMonthlyCap(ctx.db, ctx.caller.userId, a.id, input.monthly_cap_usd == null ? null : micros(input.monthly_cap_usd));
    return { changed: true };
  },
});
