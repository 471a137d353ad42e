import { randomUUID } from "node:crypto";
import { z } from "zod";
import { config } from "@/lib/core/config";
import { mediaUrl } from "@/lib/core/media-url";
import type { ErrorDetail } from "@/lib/core/errors";
import { importDrafts, MAX_IMPORT_ROWS, rowProblem, type ImportRow } from "@/lib/domain/drafts/import";
import { withImages, type Alt } from "@/lib/domain/drafts/compose";
import { isOutside, MAX_OUTSIDE_IMAGES } from "@/lib/domain/drafts/import-images";
import { MAX_POST_IMAGES, MAX_TWEET_IMAGES } from "@/lib/domain/media/draft-media";
import { networkNamed, type NetworkName } from "@/lib/domain/networks";
import { defineOperation } from "../define";
import { toDetails } from "../execute";
import { Body, DraftType, Network, RequestTimestamp } from "../schemas";
import { createMediaFields } from "../media/fields";
import { createAccountField } from "../accounts/fields";
import { createFirstComment } from "./first-comment";
import { createDraftOp } from "./create-draft";

// Many drafts at once. Each row is judged by create_draft's own schema (its fields, then its
// rules across fields) and by its domain checks (lib/domain/drafts/import.ts); every problem
// names its row, 1-based, so one refusal lists every bad row, and nothing is stored.

const Row = z.strictObject({
  network: Network.describe("Where it goes: linkedin makes a post draft, x or bluesky a tweet draft"),
  ...createAccountField,
  text: Body.describe("The text, within the network's limit: 3000 characters on LinkedIn, 280 as X counts them, 300 on Bluesky"),
  scheduled_for: RequestTimestamp.optional().describe(
    "When it is meant to go out, RFC 3339 with an offset: kept with the import (intended_for), not scheduled. " +
      "At least the minimum lead ahead, at most 365 days",
  ),
  image_urls: createMediaFields.image_urls.describe(
    `Images in order (a post up to ${MAX_POST_IMAGES}, a tweet up to ${MAX_TWEET_IMAGES}): each uploaded with upload_media, ` +
      `or an http(s) address elsewhere, fetched and stored as your media when the import is saved ` +
      `(at most ${MAX_OUTSIDE_IMAGES} such addresses an import)`,
  ),
  image_alts: z
    .array(z.string().trim().min(1).max(1000))
    .max(MAX_POST_IMAGES)
    .optional()
    .describe("What each of image_urls shows, in the same order, for people who cannot see it (at most 1000 characters each)"),
  first_comment: createFirstComment.first_comment,
  thread: createMediaFields.thread,
});

const json = (s: z.ZodType) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(s, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
};

/**
 * The rows, each a Row, judged one by one in run() rather than by the schema: a refusal then
 * names every bad row at once, schema problems and domain problems together. The listed
 * schema of an item is Row's.
 */
export const Rows = z
  .array(z.unknown())
  .min(1)
  .max(MAX_IMPORT_ROWS)
  .meta({ items: json(Row) })
  .describe(`The drafts, 1 to ${MAX_IMPORT_ROWS}, in order; a refusal names each bad row by its number (the first is 1)`);

/** Each row as create_draft's input, or its problems (as the row's); and the descriptions the rows give their images. */
export function parseRows(raw: unknown[]): { rows: ImportRow[]; problems: ErrorDetail[]; alts: Alt[] } {
  const rows: ImportRow[] = [];
  const problems: ErrorDetail[] = [];
  const alts: Alt[] = [];
  raw.forEach((value, i) => {
    const row = i + 1;
    const wrong = (issues: z.core.$ZodIssue[]) =>
      problems.push(...toDetails({ issues }).map((d) => rowProblem(row, d.path === "(body)" ? "" : d.path, d.message)));
    const r = Row.safeParse(value);
    if (!r.success) return wrong(r.error.issues);
    const { network, text, scheduled_for, image_alts, ...fields } = r.data;
    if (image_alts && image_alts.length > (fields.image_urls?.length ?? 0))
      return problems.push(rowProblem(row, "image_alts", "Give at most one description for each of image_urls"));
    image_alts?.forEach((alt, k) => alts.push({ url: fields.image_urls![k], alt }));
    const type = networkNamed(network as NetworkName).draftType;
    // An image elsewhere is fetched when the import is saved: create_draft's schema, which
    // takes uploads only, sees an upload's address in its place, and the draft gets it back.
    const origin = config().origin;
    const stand = new Map<string, string>();
    const standIn = (u: string) => {
      if (!isOutside(origin, u)) return u;
      const s = mediaUrl(origin, randomUUID());
      stand.set(s, u);
      return s;
    };
    const d = createDraftOp.input.safeParse({ type, body: text, ...withImages(fields, standIn) });
    if (!d.success) return wrong(d.error.issues);
    const draft = stand.size ? withImages(d.data, (u) => stand.get(u) ?? u) : d.data;
    rows.push({ row, network, draft, scheduledFor: scheduled_for ? new Date(scheduled_for) : null });
  });
  return { rows, problems, alts };
}

export const ImportedDrafts = z.array(
  z.strictObject({
    row: z.number().int().describe("The row it was made from (the first is 1)"),
    type: DraftType,
    id: z.string(),
    linked_post_id: z.string().nullable().describe("A tweet's parent post draft, made with it (as create_draft makes one), else null"),
    intended_for: z.string().nullable().describe("The row's scheduled_for, kept with the import; the draft itself is not scheduled"),
    scheduled_for: z.string().nullable().describe("When it is scheduled: null for an app's import, which creates drafts only"),
  }),
);

export const importDraftsOp = defineOperation({
  name: "import_drafts",
  title: "Import many drafts",
  summary: "Save up to 200 drafts at once, all or none",
  description:
    `Saves many drafts in one call (a week's plan, a spreadsheet's rows): each row is a network (linkedin: a post; x or bluesky: a ` +
    `tweet, with a parent post draft as create_draft makes one), text, and optionally account_id, image_urls (uploaded with ` +
    `upload_media, or addresses elsewhere, fetched and stored as media when the import is saved) with image_alts, first_comment, ` +
    `thread and scheduled_for. Every row is checked as create_draft checks a draft; if any row has a ` +
    `problem, nothing is saved and the refusal names every bad row by its number (the first row is 1). Creates drafts only: ` +
    `scheduled_for is kept with the import as the intended time, and scheduling each draft stays schedule_content (the owner ` +
    `approves it). The owner can remove a whole import at once on their Import page. At most ${MAX_IMPORT_ROWS} rows.`,
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  input: z.strictObject({ rows: Rows }),
  output: z.strictObject({ import_id: z.string().describe("The import, removed as one by the owner"), drafts: ImportedDrafts }),
  run: (ctx, input) => {
    const { rows, problems, alts } = parseRows(input.rows);
    return importDrafts(ctx, rows, problems, { queue: false, alts });
  },
});
