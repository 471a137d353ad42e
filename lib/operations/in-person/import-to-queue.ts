import { z } from "zod";
import { importDrafts, removeImport } from "@/lib/domain/drafts/import";
import { defineOperation } from "../define";
import { ImportedDrafts, parseRows, Rows } from "../drafts/import-drafts";
import { DraftType, Uuid } from "../schemas";
import { Alts, IN_PERSON, Refused } from "./shared";

// The Import page's confirm and its undo. The owner confirming the preview in person is their
// approval of exactly those actions (docs/decisions.md): the drafts are created as
// import_drafts creates them, then each scheduled at the time the preview showed.

export const importToQueueOp = defineOperation({
  name: "import_to_queue",
  title: "Import a spreadsheet into the queue",
  summary: "The Import page's confirm",
  description:
    "Creates the drafts of the rows the owner's Import page previewed, as import_drafts does (every row checked, all or none), then " +
    "schedules each at the time the preview showed: its own, else its account's next free queue slot in row order. Refused when the " +
    "plan differs from what the preview showed. A draft whose schedule is refused stays a draft (the first refusal is the answer's " +
    "refused); the others are still scheduled.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  input: z.strictObject({ rows: Rows, alts: Alts.optional() }),
  output: z.strictObject({ import_id: z.string(), drafts: ImportedDrafts, refused: Refused.optional() }),
  run: (ctx, input) => {
    const { rows, problems, alts } = parseRows(input.rows);
    return importDrafts(ctx, rows, problems, { queue: true, alts: [...(input.alts ?? []), ...alts] });
  },
});

export const removeImportOp = defineOperation({
  name: "remove_import",
  title: "Remove an import's drafts",
  summary: "The Import page's Remove these drafts",
  description:
    "Deletes every draft of one import that is still unpublished (draft, scheduled or failed), cancelling their schedules, as the " +
    "page showed them; what is published, being published or may be published is kept and named.",
  permission: "content:publish",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  input: z.strictObject({ import_id: Uuid }),
  output: z.strictObject({
    import_id: z.string(),
    removed: z.number().int(),
    kept: z.array(z.strictObject({ row: z.number().int(), type: DraftType, id: z.string(), status: z.string() })),
  }),
  run: (ctx, input) => removeImport(ctx, input.import_id),
});
