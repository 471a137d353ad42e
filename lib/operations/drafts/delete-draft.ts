import { z } from "zod";
import { deleteDraft } from "@/lib/domain/drafts/drafts";
import { defineOperation } from "../define";
import { DraftType, PlanLabel, Uuid } from "../schemas";

export const deleteDraftOp = defineOperation({
  name: "delete_draft",
  title: "Delete a draft",
  summary: "Delete a draft",
  description:
    "Permanently deletes a post or tweet draft, with no undo, and cancels its pending schedule so it can never be auto-published. " +
    "Deleting a post also deletes the tweet drafts stored against it. Needs the owner's publishing switch and the owner's approval of this " +
    "exact deletion: without it the answer is confirmation_required with a link for the user; after they approve, repeat the same call.",
  permission: "content:write",
  requires: ["publishing"],
  confirmation: true,
  approval: { verb: "delete", irreversible: true },
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  input: z.strictObject({
    type: DraftType,
    id: Uuid,
    confirmation_id: Uuid.optional().describe("The approval to use, from error.confirmation.id (optional)"),
    plan: PlanLabel.optional(),
  }),
  output: z.strictObject({
    id: z.string(),
    type: DraftType,
    deleted: z.boolean(),
    cancelled_schedule: z.boolean().describe("True when a pending schedule was cancelled"),
  }),
  run: (ctx, input) => deleteDraft(ctx, input),
});
