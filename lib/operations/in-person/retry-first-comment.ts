import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { retryFirstComment } from "@/lib/domain/publishing/first-comment";
import { defineOperation } from "../define";
import { DraftType, Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const retryFirstCommentOp = defineOperation({
  name: "retry_first_comment",
  title: "Post the first comment again",
  summary: "The owner tries a failed or unconfirmed first comment again",
  description: "Posts a published draft's first comment again after it failed (or its outcome is unknown); the post itself is not sent again.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  input: z.strictObject({ type: DraftType, id: Uuid }),
  output: z.strictObject({ first_comment: z.string() }),
  run: async (ctx, input) => {
    const outcome = await retryFirstComment(ctx.db, ctx.caller.userId, input.type, input.id, ctx.ports);
    if (!outcome) throw new AppError("action_failed", "There is no failed first comment to post again; reload the page to see where it stands.");
    return { first_comment: outcome };
  },
});
