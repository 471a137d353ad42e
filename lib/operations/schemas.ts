import { NETWORKS, type NetworkName } from "@/lib/domain/networks";
import { z } from "zod";
import { storable } from "@/lib/core/time";
import { PLAN_WINDOW_MINUTES } from "@/lib/domain/approvals/plans";

// Building blocks shared by operation schemas. Requests are strict (unknown fields are
// refused) and responses are strict too, so "no other keys" is checked in tests.

export const Uuid = z.uuid({ message: "Must be a UUID" });
export const DraftType = z.enum(["post", "tweet"]).describe("post: professional-network (pronet) draft; tweet: microblog (micro) draft");
export const ItemType = z.enum(["post", "tweet", "article", "idea", "series"]);
export const Platform = z.enum(["pronet", "micro"]);
/** A network by its own name (several share a platform: micro drafts go to X or Bluesky). */
export const Network = z.enum(NETWORKS.map((n) => n.id) as [NetworkName, ...NetworkName[]]);
/** Response timestamps: RFC 3339 UTC with milliseconds. */
export const Timestamp = z.string().describe("RFC 3339 UTC timestamp, e.g. 2026-11-22T09:30:00.000Z");
export const NullableTimestamp = Timestamp.nullable();
/** Request timestamps must carry an explicit offset. */
export const RequestTimestamp = z.iso
  .datetime({ offset: true, message: "Must be an RFC 3339 timestamp with an offset (Z or +02:00)" })
  .refine((s) => storable(new Date(s)), "Must be a time in the years 1 to 9999 (UTC)");

export const Limit = z.number().int().min(1).max(50).default(20).describe("Page size, 1..50 (default 20)");
export const Cursor = z.string().min(1).max(200).describe("Opaque cursor from next_cursor of the previous page");
export const NextCursor = z.string().nullable().describe("Cursor of the next page, or null on the last page");

export const Hashtags = z.array(z.string().regex(/^#?[\p{L}\p{N}_]{1,100}$/u, "A hashtag is letters, digits or _ (up to 100), with or without #")).max(30);
export const Pillar = z.string().trim().min(1).max(100);

/**
 * A confirmed action's optional plan label: the app's name for several actions the owner
 * reviews together. Printable, no surrounding spaces, at most 80 characters.
 */
export const PlanLabel = z
  .string()
  .max(80, "At most 80 characters")
  .regex(/^[^\p{C}\s](?:[^\p{C}]*[^\p{C}\s])?$/u, "1 to 80 printable characters, without spaces at either end")
  .describe(
    `Optional: a label naming a plan of several actions (e.g. "Week 47"). Calls with the same label from this app within ${PLAN_WINDOW_MINUTES} minutes ` +
      "of the plan's first call wait in one review, where the owner approves them together; error.confirmation.plan.url is its address.",
  );

export const Title = z.string().trim().min(1).max(200);
export const Body = z.string().min(1).max(3000);

export const DraftSummary = z.strictObject({
  id: z.string(),
  type: DraftType,
  title: z.string(),
  preview: z.string().describe("The first characters of the body"),
});
