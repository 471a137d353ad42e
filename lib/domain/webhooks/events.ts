import { z } from "zod";

// The closed set of webhook events: names, what each means, and the JSON Schema of its
// payload (OpenAPI's `webhooks` section is generated from these). Payloads carry ids and
// facts, never tokens or secrets; of a draft's text only its title (fetch_item gives the rest).

const DraftType = z.enum(["post", "tweet"]);
const Platform = z.enum(["pronet", "micro"]);
const Time = z.string().describe("RFC 3339 UTC timestamp");
const NullableTime = Time.nullable();
const Actor = z
  .strictObject({ kind: z.enum(["app", "owner", "scheduler"]), app_name: z.string().nullable() })
  .describe("Who made the change: a connected app (by the name it had then), the owner, or the publishing engine");

/** The draft an event is about. */
const DraftRef = {
  type: DraftType,
  id: z.string(),
  platform: Platform,
  account_id: z.string().nullable().describe("The account it goes to (get_profile_context's accounts); null: the network's default"),
};

export const EVENT_DATA = {
  "draft.created": z.strictObject({ ...DraftRef, title: z.string(), status: z.string(), actor: Actor }),
  "draft.updated": z.strictObject({
    ...DraftRef,
    title: z.string(),
    status: z.string(),
    scheduled_for: NullableTime,
    updated_at: Time,
    actor: Actor,
  }),
  "draft.deleted": z.strictObject({ ...DraftRef, cancelled_schedule: z.boolean(), actor: Actor }),
  "draft.scheduled": z.strictObject({ ...DraftRef, title: z.string(), scheduled_for: Time, previous_scheduled_for: NullableTime, actor: Actor }),
  "draft.unscheduled": z.strictObject({ ...DraftRef, title: z.string(), previous_scheduled_for: NullableTime, actor: Actor }),
  "post.published": z.strictObject({ ...DraftRef, url: z.string().nullable().describe("The post's link on the platform (null when it gives none)") }),
  "post.failed": z.strictObject({ ...DraftRef, reason: z.string().describe("Why nothing was posted (no credentials in it)") }),
  "post.unknown": z.strictObject({
    ...DraftRef,
    reason: z.string().describe("Why the outcome is unconfirmed; the owner checks the platform and settles it"),
  }),
  "post.removed": z.strictObject({
    ...DraftRef,
    url: z.string().nullable().describe("The link the post had"),
    reason: z.string().describe("What the network answered when the published post was read back"),
  }),
  "approval.requested": z.strictObject({
    approval_id: z.string(),
    url: z.string().describe("The page where the owner approves or denies the exact action"),
    operation: z.string(),
    draft: z.strictObject({ type: z.string(), id: z.string(), title: z.string() }),
    scheduled_for: NullableTime,
    expires_at: Time,
    app_name: z.string().nullable(),
    plan: z
      .strictObject({ id: z.string(), label: z.string(), url: z.string().describe("The plan's review, where the owner decides its actions together") })
      .optional()
      .describe("The plan the request waits in, when the app's call named one"),
  }),
  "approval.decided": z.strictObject({
    approval_id: z.string(),
    decision: z.enum(["approved", "denied"]),
    operation: z.string(),
    draft: z.strictObject({ type: z.string(), id: z.string(), title: z.string() }),
    expires_at: Time.describe("An approval is good until then (10 minutes after the decision)"),
  }),
  "connection.expiring": z.strictObject({
    platform: Platform,
    expires_at: Time.describe("When the connection stops being able to publish (it cannot renew itself)"),
  }),
  "connection.needs_reconnect": z.strictObject({
    platform: Platform,
    reason: z.enum(["expired", "revoked"]).describe("expired: its access ran out; revoked: the platform refused to renew it"),
  }),
  "webhook.test": z.strictObject({ webhook_id: z.string(), message: z.string() }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<T extends EventType> = z.input<(typeof EVENT_DATA)[T]>;

/** What an endpoint can subscribe to (webhook.test goes only to the endpoint being tested). */
export const SUBSCRIBABLE = [
  "draft.created",
  "draft.updated",
  "draft.deleted",
  "draft.scheduled",
  "draft.unscheduled",
  "post.published",
  "post.failed",
  "post.unknown",
  "post.removed",
  "approval.requested",
  "approval.decided",
  "connection.expiring",
  "connection.needs_reconnect",
] as const satisfies readonly EventType[];
export type SubscribableEvent = (typeof SUBSCRIBABLE)[number];

export const EVENT_DOCS: Record<EventType, string> = {
  "draft.created": "A post or tweet draft was created (create_draft, generate_post, generate_tweet, or a tweet's parent post).",
  "draft.updated": "A draft's content, hashtags or pillar changed.",
  "draft.deleted": "A draft was deleted (a post's tweets go with it, without events of their own).",
  "draft.scheduled": "A draft was scheduled or moved to another time.",
  "draft.unscheduled": "A draft was taken off the schedule.",
  "post.published": "A draft went out; `url` is its link on the platform.",
  "post.failed": "Publishing failed (including drafts that missed their time); `reason` says why, and for a thread which parts are already out.",
  "post.unknown": "The platform did not confirm whether the post went out; the owner must check. It is never retried automatically.",
  "post.removed":
    "A published post was read back (RECEIPTS_AFTER after publishing) and its network no longer has it " +
    "(LinkedIn can drop a post after accepting it); the draft is now `removed`.",
  "approval.requested": "An app asked for the owner's approval of an exact action; `url` is the approval page.",
  "approval.decided": "The owner approved or denied an action.",
  "connection.expiring": "A LinkedIn or X connection that cannot renew itself stops working within 7 days.",
  "connection.needs_reconnect": "A LinkedIn or X connection can no longer publish until the owner reconnects it.",
  "webhook.test": "Sent by manage_webhooks `test` (or Settings > Webhooks > Send test) to that endpoint only.",
};

/** The body of every delivery (Standard Webhooks' recommended envelope). */
export const envelopeSchema = (type: EventType) =>
  z.strictObject({ type: z.literal(type), timestamp: Time.describe("When the event happened"), data: EVENT_DATA[type] });

export type Actor = z.infer<typeof Actor>;
