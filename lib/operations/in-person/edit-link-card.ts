import { z } from "zod";
import { editLinkCard } from "@/lib/domain/drafts/link-card";
import { defineOperation } from "../define";
import { Uuid } from "../schemas";
import { IN_PERSON } from "./shared";

export const editLinkCardOp = defineOperation({
  name: "edit_link_card",
  title: "Change a post's link card",
  summary: "The owner changes the title or description of a LinkedIn post's link card",
  description:
    "A LinkedIn post with a link and no media carries a link card read from the page (LinkedIn makes none itself). Before it is " +
    "scheduled, the owner may change the card's title and description; the approval then covers the changed card.",
  permission: "content:write",
  ...IN_PERSON,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ id: Uuid, title: z.string().trim().min(1).max(300), description: z.string().max(1000) }),
  output: z.strictObject({ saved: z.literal(true) }),
  run: async (ctx, input) => {
    await editLinkCard(ctx, input);
    return { saved: true as const };
  },
});
