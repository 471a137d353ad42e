import { z } from "zod";
import { connectWithPassword } from "@/lib/domain/accounts/password";
import { defineOperation } from "../define";
import { IN_PERSON } from "./shared";

export const connectAccountOp = defineOperation({
  name: "connect_account",
  title: "Connect an account with an app password",
  summary: "Settings > Connections: Connect Bluesky",
  description:
    "Connects the owner's account on a network that signs in with a handle and an app password (Bluesky): the password goes only " +
    "to the account's own server, and only the session it gives is kept.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  input: z.strictObject({ network: z.literal("bluesky"), handle: z.string().max(300), password: z.string().max(1000) }),
  output: z.strictObject({ account_id: z.string(), handle: z.string().nullable() }),
  run: async (ctx, input) => {
    const a = await connectWithPassword(ctx.db, ctx.caller.userId, ctx.ports.platforms, input);
    return { account_id: a.account_id, handle: a.handle };
  },
});
