import { z } from "zod";
import { resolveUnknown } from "@/lib/domain/owner/owner";
import { defineOperation } from "../define";
import { DraftType, Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const settleUnknownOp = defineOperation({
  name: "settle_unknown",
  title: "Settle an unconfirmed post",
  summary: "The owner says whether an unconfirmed post went out",
  description:
    "After checking the network, the owner settles a draft whose outcome is unknown: it went out (published, with the link they " +
    "pasted) or it did not (failed: it can be published again). An app cannot know, so only the owner does this.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.discriminatedUnion("posted", [
    z.strictObject({ type: DraftType, id: Uuid, posted: z.literal(true), url: z.string().max(2000) }),
    z.strictObject({ type: DraftType, id: Uuid, posted: z.literal(false) }),
  ]),
  output: z.strictObject({ settled: z.literal(true) }),
  run: async (ctx, input) => {
    await resolveUnknown(ctx, input);
    return { settled: true as const };
  },
});
