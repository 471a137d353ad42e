import { z } from "zod";

// Pieces the owner's own operations share.

/** Descriptions the owner gave images in the composer (each image's address, and its text). */
export const Alts = z.array(z.strictObject({ url: z.string().max(2000), alt: z.string().max(1000) })).max(100);

/** A step refused after the drafts were saved (they stay saved). */
export const Refused = z.strictObject({
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
  details: z.array(z.strictObject({ path: z.string(), message: z.string() })).optional(),
});

/** What an owner's own action needs: their page is the confirmation, and the owner's switch for apps does not apply. */
export const IN_PERSON = { confirmation: false, inPersonOnly: true } as const;

/** A time comes with Schedule, and only with it. */
export function checkWhen(v: { then?: string; scheduled_for?: string }, ctx: z.RefinementCtx) {
  if ((v.then === "schedule") !== (v.scheduled_for !== undefined))
    ctx.addIssue({ code: "custom", path: ["scheduled_for"], message: "Choose a date and a time" });
}
