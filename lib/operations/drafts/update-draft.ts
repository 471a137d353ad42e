import { z } from "zod";
import { updateDraft } from "@/lib/domain/drafts/edit";
import { defineOperation } from "../define";
import { Body, DraftSummary, DraftType, Hashtags, NullableTimestamp, Pillar, RequestTimestamp, Timestamp, Title, Uuid } from "../schemas";
import { checkMediaFields, updateMediaFields } from "../media/fields";
import { updateFirstComment } from "./first-comment";
import { updateAccountField } from "../accounts/fields";

const EDITABLE = [
  "title",
  "body",
  "image_url",
  "image_urls",
  "document_url",
  "document_title",
  "thread",
  "first_comment",
  "account_id",
  "hashtags",
  "pillar",
] as const;

const Input = z
  .strictObject({
    type: DraftType,
    id: Uuid,
    title: Title.optional().describe("Posts only"),
    body: Body.optional(),
    ...updateMediaFields,
    ...updateFirstComment,
    ...updateAccountField,
    hashtags: Hashtags.optional(),
    pillar: Pillar.optional().describe("Content pillar, at most 100 characters"),
    if_updated_at: RequestTimestamp.optional().describe("Refuse the edit if the draft changed since this updated_at"),
    confirmation_id: Uuid.optional().describe("The approval to use, from error.confirmation.id (optional; only edits of a scheduled draft's content need one)"),
  })
  .superRefine((v, ctx) => {
    if (!EDITABLE.some((k) => v[k] !== undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: `Give at least one of ${EDITABLE.join(", ")}` });
    }
    if (v.type === "tweet" && v.title !== undefined)
      ctx.addIssue({ code: "custom", path: ["title"], message: "title is for posts only; a tweet's title comes from its text" });
    checkMediaFields(v, ctx);
  })
  // The refinement above is invisible to JSON Schema; say it there too, so OpenAPI and MCP
  // clients do not send a body the server refuses.
  .meta({ anyOf: EDITABLE.map((k) => ({ required: [k] })) });

const Output = DraftSummary.extend({
  status: z.string(),
  scheduled_for: NullableTimestamp,
  updated_at: Timestamp,
});

export const updateDraftOp = defineOperation({
  name: "update_draft",
  title: "Edit a draft",
  summary: "Edit a draft",
  description:
    "Changes the title, text, images, document, thread parts, first comment, account, hashtags or pillar of an existing post or tweet draft; " +
    "fields you leave out stay as they are (image_urls and thread replace the whole list). Images and documents are files uploaded with " +
    "upload_media. Send if_updated_at (from fetch_item) to avoid overwriting a newer edit. Published drafts cannot be edited. A scheduled draft " +
    "keeps its schedule, but editing it needs the owner's publishing switch, and changing what will be posted or where (title, text, images, " +
    "document, thread parts, first comment or account) also needs the owner's approval of that exact edit: without it the answer is " +
    "confirmation_required with a link for the user (they see the current and the proposed version side by side); after they approve, repeat the " +
    "same call. Hashtags and pillar are not posted, so changing only those needs no approval.",
  permission: "content:write",
  confirmation: false,
  confirmationWhen: "when it changes the title, text, images, document, thread, first comment or account of a scheduled draft",
  approval: { verb: "change the content of the scheduled" },
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: Input,
  output: Output,
  run: (ctx, input) => updateDraft(ctx, input),
});
