import { z } from "zod";
import { decideApproval } from "@/lib/domain/approvals/approvals";
import { defineOperation } from "../define";
import { Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const decideApprovalOp = defineOperation({
  name: "decide_approval",
  title: "Approve or deny an app's action",
  summary: "The owner's decision on one exact action an app asked for",
  description:
    "Approves or denies one exact action an app asked for (publish, schedule, delete, or an edit of a scheduled draft): only its owner, " +
    "only while it is pending and unexpired. An approval is then good for 10 minutes, for that exact content. " +
    "A page that sends the hash of the request it showed decides only that request.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ id: Uuid, decision: z.enum(["approved", "denied"]) }),
  output: z.strictObject({ decided: z.boolean().describe("False when it was no longer waiting (decided, expired or not this owner's)") }),
  // The page's shown hash (decisionHash), when it sends one: the decision holds only for the request as the page showed it.
  run: async (ctx, input) => ({ decided: await decideApproval(ctx.db, ctx.caller.userId, input.id, input.decision, ctx.now(), ctx.shown) }),
});
