import { z } from "zod";
import { disconnectAccount, setDefaultAccount } from "@/lib/domain/accounts/accounts";
import { defineOperation } from "../define";
import { Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const changeAccountOp = defineOperation({
  name: "change_account",
  title: "Make an account the default, or disconnect it",
  summary: "Settings > Connections: Make default, Disconnect",
  description:
    "Makes one of the owner's publishing accounts their network's default, or disconnects it: what was scheduled to it becomes " +
    "drafts again, so nothing goes to an account the owner removed, nor to another one they did not approve; its session on the " +
    "network is ended where the network offers that (Bluesky).",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  input: z.strictObject({ account_id: Uuid, action: z.enum(["make_default", "disconnect"]) }),
  output: z.strictObject({ changed: z.boolean().describe("False when the account is not (or no longer) the owner's") }),
  run: async (ctx, input) => {
    if (input.action === "make_default") return { changed: await setDefaultAccount(ctx.db, ctx.caller.userId, input.account_id) };
    const done = await disconnectAccount(ctx.db, ctx.caller.userId, input.account_id);
    // Once it is gone here: the network's session ended too, where the network can.
    if (done && done.removed) await ctx.ports.platforms.signOut(done.removed);
    return { changed: !!done };
  },
});
