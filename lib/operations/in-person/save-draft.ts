import { z } from "zod";
import { saveDraft } from "@/lib/domain/drafts/save";
import { defineOperation } from "../define";
import { updateDraftOp } from "../drafts/update-draft";
import { RequestTimestamp } from "../schemas";
import { Alts, checkWhen, IN_PERSON, Refused } from "./shared";

export const saveDraftOp = defineOperation({
  name: "save_draft",
  title: "Save a draft on its page",
  summary: "The item page's and the composer's Save, then Schedule, Unschedule or Publish now",
  description:
    "Saves the draft as the owner's page shows it now (only what differs from the stored draft, checked as update_draft checks an " +
    "app's edit, and only on top of the content the page showed), then does what the pressed button says with the content just saved. " +
    "autosave saves an unscheduled draft's texts alone, as the owner pauses.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  longRunning: true,
  input: z
    .strictObject({
      draft: updateDraftOp.input,
      alts: Alts.optional(),
      then: z.enum(["save", "queue", "schedule", "unschedule", "publish"]).optional(),
      scheduled_for: RequestTimestamp.optional(),
      autosave: z.boolean().optional(),
      alreadyNoted: z.boolean().optional(),
    })
    .superRefine((v, ctx) => {
      checkWhen(v, ctx);
      if (v.autosave && v.then && v.then !== "save") ctx.addIssue({ code: "custom", path: ["then"], message: "An autosave only saves" });
    }),
  output: z.strictObject({
    saved: z.boolean(),
    fields: z.array(z.string()),
    updated_at: z.string(),
    shown: z.string(),
    done: z.string().optional(),
    scheduled_for: z.string().optional(),
    previous_scheduled_for: z.string().nullable().optional(),
    refused: Refused.optional(),
  }),
  run: (ctx, { draft: { confirmation_id: _unused, ...draft }, ...rest }) => saveDraft(ctx, { ...draft, ...rest }),
});
