import { z } from "zod";
import { getPostMetrics } from "@/lib/domain/metrics/read";
import { defineOperation } from "../define";
import { DraftType, Network, NullableTimestamp, Platform, RequestTimestamp, Timestamp, Uuid } from "../schemas";

const count = z.number().int().nullable();
const Metrics = z.strictObject({ impressions: count, likes: count, replies: count, reposts: count, quotes: count, clicks: count });
const Group = { posts: z.number().int(), average_engagement: z.number(), average_impressions: z.number().nullable() };

const Output = z.strictObject({
  posts: z.array(
    z.strictObject({
      type: DraftType,
      id: z.string(),
      title: z.string(),
      platform: Platform,
      network: Network.describe("The network it went to: a micro post went to X or Bluesky"),
      url: z.string().nullable(),
      published_at: Timestamp,
      metrics: Metrics.nullable().describe("The latest numbers the network gave; null: none yet (notes says why)"),
      collected_at: NullableTimestamp,
      pillar: z.string().nullable(),
    }),
  ),
  summary: z.strictObject({
    best: z.array(z.strictObject({ type: DraftType, id: z.string(), title: z.string(), engagement: z.number().int(), impressions: count })),
    by_pillar: z.array(z.strictObject({ pillar: z.string(), ...Group })),
    by_hour: z.array(z.strictObject({ hour: z.number().int().min(0).max(23).describe("Hour of publishing in the user's time zone"), ...Group })),
  }),
  read_budget: z.strictObject({
    x: z.strictObject({ used: z.number().int(), limit: z.number().int(), resets_at: Timestamp }).describe("Posts read from X this month (X charges per read)"),
  }),
  notes: z.array(z.string()),
});

export const getPostMetricsOp = defineOperation({
  name: "get_post_metrics",
  title: "Engagement of published posts",
  summary: "Engagement of published posts",
  description:
    "Returns how the user's published posts and tweets did on LinkedIn, X and Bluesky: impressions, likes, replies, reposts, quotes and clicks as " +
    "the network last reported them (read 1 hour, 24 hours, 7 days after publishing, then weekly for a month; null where a " +
    "network does not give a number), with the best posts and averages by content pillar and by hour of publishing. Give type " +
    "and id for one item, or from and to (publishing dates; default: the last 90 days) for a range. notes says why a post has " +
    "no numbers. Use it to learn which posts worked before writing new ones.",
  permission: "analytics:read",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z
    .strictObject({
      type: DraftType.optional().describe("With id: the item's type; alone: only posts or only tweets"),
      id: Uuid.optional().describe("One published item (needs type)"),
      from: RequestTimestamp.optional().describe("Published at or after"),
      to: RequestTimestamp.optional().describe("Published at or before"),
    })
    .refine((i) => !i.id || i.type, { message: "id needs its type (post or tweet)", path: ["type"] })
    .refine((i) => !i.id || (!i.from && !i.to), { message: "give either an id or a range (from, to), not both", path: ["id"] })
    .refine((i) => !i.from || !i.to || new Date(i.from) <= new Date(i.to), { message: "from must not be after to", path: ["from"] }),
  output: Output,
  run: async (ctx, input) =>
    (await getPostMetrics(ctx, {
      type: input.type,
      id: input.id,
      from: input.from ? new Date(input.from) : undefined,
      to: input.to ? new Date(input.to) : undefined,
    })) as z.input<typeof Output>,
});
