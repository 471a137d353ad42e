import { z } from "zod";
import { createDraft } from "@/lib/domain/drafts/drafts";
import { defineOperation } from "../define";
import { Body, DraftSummary, DraftType, Title, Uuid } from "../schemas";
import { checkMediaFields, createMediaFields } from "../media/fields";
import { createFirstComment } from "./first-comment";
import { createAccountField } from "../accounts/fields";

const Input = z
  .strictObject({
    type: DraftType,
    body: Body.describe("The draft text, 1 to 3000 characters; a tweet within its network's limit: 280 characters as X counts them, 300 on Bluesky"),
    title: Title.optional().describe("Posts only, 1 to 200 characters; derived from the first line when omitted"),
    ...createMediaFields,
    ...createFirstComment,
    ...createAccountField,
    post_draft_id: Uuid.optional().describe("Tweets only: the parent post draft; omitted creates a matching one"),
    series_topic_id: Uuid.optional().describe("The series topic this draft is written for (makes the topic in_progress)"),
  })
  .superRefine((v, ctx) => {
    if (v.type === "tweet" && v.title !== undefined)
      ctx.addIssue({ code: "custom", path: ["title"], message: "title is for posts only; a tweet's title comes from its text" });
    if (v.type === "post" && v.post_draft_id !== undefined)
      ctx.addIssue({ code: "custom", path: ["post_draft_id"], message: "post_draft_id is for tweets only" });
    checkMediaFields(v, ctx);
  });

const Output = DraftSummary.extend({
  linked_post_id: z.string().nullable().describe("Id of the parent post draft created for a tweet, else null"),
});

export const createDraftOp = defineOperation({
  name: "create_draft",
  title: "Save a draft",
  summary: "Save a draft",
  description:
    "Saves text you already have as a new private draft: type post for the professional network (pronet), tweet for the microblog " +
    "(micro). Nothing is posted, generated or scheduled. A tweet without post_draft_id gets a matching parent post draft, whose " +
    "id comes back in linked_post_id. Attach files uploaded with upload_media: image_urls (a post up to 20, a tweet up to 4), " +
    "or for a post document_url (a PDF shown as a document carousel, not with images). A tweet can be a thread: body is the first " +
    "part, thread the 1 to 24 parts after it. first_comment is posted right after the post (a comment on LinkedIn, a reply on X). " +
    "To write new text in the user's voice use generate_post or generate_tweet instead.",
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  input: Input,
  output: Output,
  run: (ctx, input) => createDraft(ctx, input),
});
