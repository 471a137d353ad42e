import { z } from "zod";
import { publishNow } from "@/lib/domain/publishing/schedule";
import { defineOperation } from "../define";
import { DraftType, PlanLabel, Platform, Uuid } from "../schemas";

export const publishNowOp = defineOperation({
  name: "publish_now",
  title: "Publish a draft now",
  summary: "Publish a draft immediately",
  description:
    "Publishes a draft publicly at once and irreversibly: a post to the professional network, a tweet to the microblog (a later " +
    "deletion must be done on the platform itself). Use schedule_content instead whenever any time is mentioned. A published draft is " +
    "never published again (the answer gives its URL). Needs the owner's publishing switch and the owner's approval of this exact " +
    "draft: without it the answer is confirmation_required with a link for the user; after they approve, repeat the same call once.",
  permission: "content:publish",
  confirmation: true,
  approval: { verb: "publish now", irreversible: true },
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  longRunning: true,
  input: z.strictObject({
    type: DraftType,
    id: Uuid,
    confirmation_id: Uuid.optional().describe("The approval to use, from error.confirmation.id (optional)"),
    plan: PlanLabel.optional(),
  }),
  output: z.strictObject({
    platform: Platform,
    platform_post_id: z.string().nullable(),
    url: z.string().nullable().describe("Link to the published post; null when the platform gives none"),
  }),
  run: (ctx, input) => publishNow(ctx, input),
});
