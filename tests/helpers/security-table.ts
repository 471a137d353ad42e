import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { z } from "zod";
import { db } from "@/lib/adapters/db";
import { listAccounts } from "@/lib/domain/accounts/accounts";
import type { Operation } from "@/lib/operations/define";
import { approvals, authAccounts } from "@/drizzle/schema";
import { call, type TestUser } from "./api";

// The per-operation security table, one for every surface (REST and MCP in
// tests/integration/security.test.ts, the owner's pages in owner-door.test.ts): a minimal
// valid body per operation, pointing at one user's items. A new operation fails here until it
// has one.

/** Items of one user that bodies may point at. */
export type Fixture = { post: string; tweet: string; series: string; topic: string; webhook: string; li: string; x: string; approval: string; app: string };

/** A 2 x 2 PNG, base64. */
const PNG_2X2 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWNg6DgDQhAKACIOBVEyhxYyAAAAAElFTkSuQmCC";

const inTwoHours = () => new Date(Date.now() + 2 * 3600_000).toISOString();

/**
 * A minimal valid body per operation (several when one body cannot name every id field).
 * Ids point at the given user's items; the ownership test mixes two users' fixtures.
 */
export const VALID: Record<string, (f: Fixture) => Record<string, unknown> | Record<string, unknown>[]> = {
  search_content: () => ({ query: "hello" }),
  fetch_item: (f) => ({ type: "post", id: f.post }),
  list_scheduled: () => ({}),
  get_profile_context: () => ({}),
  get_analytics: () => ({ area: "overview" }),
  get_post_metrics: (f) => ({ type: "post", id: f.post }),
  generate_post: (f) => ({ topic: "Shipping small things", series_topic_id: f.topic, account_id: f.li }),
  generate_tweet: (f) => [{ from_post_id: f.post }, { topic: "Shipping small things", series_topic_id: f.topic, account_id: f.x }],
  create_draft: (f) => [
    { type: "tweet", body: "A reply", post_draft_id: f.post, account_id: f.x },
    { type: "post", body: "For a topic", series_topic_id: f.topic, account_id: f.li },
  ],
  import_drafts: (f) => ({
    rows: [
      { network: "linkedin", text: "Imported", account_id: f.li },
      { network: "x", text: "Imported tweet", account_id: f.x },
    ],
  }),
  update_draft: (f) => ({ type: "post", id: f.post, body: "Edited", account_id: f.li }),
  upload_media: () => ({ data: PNG_2X2, content_type: "image/png", filename: "dot.png", alt_text: "A blue dot" }),
  delete_draft: (f) => ({ type: "tweet", id: f.tweet }),
  schedule_content: (f) => ({ type: "post", id: f.post, scheduled_for: inTwoHours() }),
  unschedule_content: (f) => ({ type: "post", id: f.post }),
  preview_publish: (f) => ({ type: "tweet", id: f.tweet }),
  publish_now: (f) => ({ type: "post", id: f.post }),
  manage_queue: (f) => ({ account_id: f.li }),
  list_series: () => ({}),
  manage_series: (f) => [
    { action: "update", series_id: f.series, title: "Renamed" },
    { action: "update_topic", series_id: f.series, topic_id: f.topic, title: "Renamed topic" },
  ],
  list_webhooks: () => ({}),
  // The owner's own operations (lib/operations/in-person), reached only from their pages.
  compose: (f) => ({ drafts: [{ type: "post", body: "Written in the composer", account_id: f.li }], then: "save" }),
  save_draft: (f) => ({ draft: { type: "post", id: f.post, body: "Saved on its page", account_id: f.li }, then: "save" }),
  schedule_on_day: (f) => ({ type: "post", id: f.post, day: new Date(Date.now() + 2 * 86400_000).toISOString().slice(0, 10) }),
  move_in_queue: (f) => ({ type: "post", id: f.post, to: "end" }),
  settle_unknown: (f) => ({ type: "post", id: f.post, posted: false }),
  retry_first_comment: (f) => ({ type: "post", id: f.post }),
  edit_link_card: (f) => ({ id: f.post, title: "A card title", description: "" }),
  decide_approval: (f) => ({ id: f.approval, decision: "denied" }),
  change_account: (f) => ({ account_id: f.li, action: "make_default" }),
  resend_delivery: () => ({ delivery_id: randomUUID() }),
  assist_writing: () => ({ action: "shorten", format: "post", text: "A sentence. Another one." }),
  change_app: (f) => ({ app_id: f.app, action: "trust_forms" }),
  set_publishing: () => ({ allowed: true }),
  set_notifications: () => ({ failed: true, unknown: true, approval: false, expiring: true }),
  set_getting_started: () => ({ hidden: true }),
  create_personal_token: () => ({ name: "Publishing script", days: 30 }),
  // No PDS answers here: the handle does not resolve, and the refusal is the same each time.
  import_to_queue: (f) => ({ rows: [{ network: "linkedin", text: "Imported", account_id: f.li, scheduled_for: inTwoHours() }] }),
  remove_import: () => ({ import_id: randomUUID() }),
  connect_account: () => ({ network: "bluesky", handle: "nobody.invalid", password: "abcd-efgh-ijkl-mnop" }),
  manage_webhooks: (f) => [
    { action: "update", webhook_id: f.webhook, description: "Renamed" },
    { action: "create", url: "https://hooks.example.com/contentio", events: ["post.published"] },
  ],
};

/** A post, a tweet against it, a series with one topic (made through the API itself), and a LinkedIn and an X account. */
export async function fixtureOf(u: TestUser): Promise<Fixture> {
  const d = await db();
  for (const provider of ["linkedin", "twitter"])
    await d.insert(authAccounts).values({ userId: u.id, type: "oauth", provider, providerAccountId: `${provider}-${randomUUID()}`, access_token: "t" });
  const accounts = await listAccounts(d, u.id);
  const tweet = await call("create_draft", { type: "tweet", body: "My own words" }, { token: u.token });
  const series = await call("manage_series", { action: "create", title: "My series", topics: [{ title: "Part one" }] }, { token: u.token });
  const hook = await call("manage_webhooks", { action: "create", url: "https://hooks.example.com/mine", events: ["draft.created"] }, { token: u.token });
  expect([tweet.status, series.status, hook.status], JSON.stringify([tweet.body, series.body, hook.body])).toEqual([200, 200, 200]);
  // A request of the app's waiting for the owner (an approval of deleting its tweet).
  const [asked] = await d
    .insert(approvals)
    .values({
      userId: u.id,
      appId: u.appId,
      operation: "delete_draft",
      argsHash: "test",
      contentHash: "test",
      action: { operation: "delete_draft", type: "tweet", id: tweet.body.id, title: "My own words", scheduled_for: null },
      body: "My own words",
      expiresAt: new Date(Date.now() + 600_000),
    })
    .returning({ id: approvals.id });
  return {
    app: u.appId,
    approval: asked.id,
    post: tweet.body.linked_post_id,
    tweet: tweet.body.id,
    series: series.body.series.id,
    topic: series.body.topics[0].id,
    webhook: hook.body.webhook.id,
    li: accounts.find((a) => a.platform === "pronet")!.account_id,
    x: accounts.find((a) => a.platform === "micro")!.account_id,
  };
}

export function bodiesOf(name: string, f: Fixture): Record<string, unknown>[] {
  const make = VALID[name];
  if (!make) throw new Error(`Operation "${name}" has no minimal valid body: add one to VALID in tests/integration/security.test.ts`);
  return ([] as Record<string, unknown>[]).concat(make(f));
}

/** Top-level field names of an operation's input, across union branches. */
export function inputFields(op: Operation): string[] {
  const fields = new Set<string>();
  const visit = (s: unknown) => {
    if (!s || typeof s !== "object") return;
    const js = s as { properties?: object; anyOf?: unknown[]; oneOf?: unknown[]; allOf?: unknown[] };
    for (const k of Object.keys(js.properties ?? {})) fields.add(k);
    for (const b of [...(js.anyOf ?? []), ...(js.oneOf ?? []), ...(js.allOf ?? [])]) visit(b);
  };
  visit(z.toJSONSchema(op.input, { io: "input", unrepresentable: "any" }));
  return [...fields];
}

// Fields naming one of the caller's items. confirmation_id names an approval, which is
// matched against the caller anyway (a foreign one is simply no approval).
export const isIdField = (k: string) => (k === "id" || k.endsWith("_id")) && k !== "confirmation_id";
