import { z } from "zod";
import { manageSeries } from "@/lib/domain/series/series";
import { defineOperation } from "../define";
import { NullableTimestamp, Uuid } from "../schemas";

const Title = z.string().trim().min(1).max(200);
const Description = z.string().trim().max(2000);
const NewTopic = z.strictObject({ title: Title, description: Description.optional() });
const TopicStatus = z.enum(["pending", "in_progress", "done", "skipped"]);

const Input = z.discriminatedUnion("action", [
  z.strictObject({
    action: z.literal("create"),
    title: Title,
    description: Description.optional(),
    pronet_enabled: z.boolean().default(true),
    micro_enabled: z.boolean().default(false),
    topics: z.array(NewTopic).max(100).optional().describe("Up to 100 topics, in order"),
  }),
  z.strictObject({
    action: z.literal("update"),
    series_id: Uuid,
    title: Title.optional(),
    description: Description.nullable().optional(),
    pronet_enabled: z.boolean().optional(),
    micro_enabled: z.boolean().optional(),
    is_active: z.boolean().optional().describe("false pauses the series"),
  }),
  z.strictObject({
    action: z.literal("add_topics"),
    series_id: Uuid,
    topics: z.array(NewTopic).min(1).max(100),
    position: z.number().int().min(0).optional().describe("0-based index to insert at (default: the end)"),
  }),
  z.strictObject({
    action: z.literal("update_topic"),
    series_id: Uuid,
    topic_id: Uuid,
    title: Title.optional(),
    description: Description.nullable().optional(),
    status: TopicStatus.optional(),
  }),
  z.strictObject({
    action: z.literal("reorder_topics"),
    series_id: Uuid,
    topic_ids: z
      .array(Uuid)
      .min(1)
      .max(100)
      .refine((ids) => new Set(ids).size === ids.length, "topic_ids must not repeat an id")
      .describe("Every topic id of the series exactly once, in the new order"),
  }),
  z.strictObject({ action: z.literal("remove_topic"), series_id: Uuid, topic_id: Uuid }),
]);

export const TopicOut = z.strictObject({
  id: z.string(),
  order_index: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  status: TopicStatus,
  pronet_completed: z.boolean(),
  micro_completed: z.boolean(),
  pronet_post_id: z.string().nullable(),
  micro_post_id: z.string().nullable(),
});

/** A series' switches and progress (docs/interface.md, Series), also fetch_item's `series` object. */
export const SeriesProgress = z.strictObject({
  pronet_enabled: z.boolean(),
  micro_enabled: z.boolean(),
  is_active: z.boolean(),
  completed_at: NullableTimestamp,
  total_topics: z.number(),
  completed_topics: z.number(),
});

export const manageSeriesOp = defineOperation({
  name: "manage_series",
  title: "Create or update a series and its topics",
  summary: "Create or update a series and its topics",
  description:
    "Creates or changes a multi-part content series, by action: create (with optional topics), update (title, description, " +
    "networks, is_active false to pause), add_topics (at a position), update_topic (title, description, status pending/in_progress/done/skipped), " +
    "reorder_topics (topic_ids must list every topic exactly once), remove_topic. Nothing is written or published: " +
    "to write a topic's post use generate_post or create_draft with series_topic_id. Returns the series and all its topics.",
  permission: "content:write",
  confirmation: false,
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  input: Input,
  output: z.strictObject({
    series: SeriesProgress.extend({ id: z.string(), title: z.string(), description: z.string().nullable() }),
    topics: z.array(TopicOut),
  }),
  run: (ctx, input) => manageSeries(ctx, input),
});
