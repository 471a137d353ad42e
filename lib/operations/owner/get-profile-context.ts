import { z } from "zod";
import { getProfileContext } from "@/lib/domain/owner/profile";
import { defineOperation } from "../define";
import { Network, Platform, Timestamp } from "../schemas";

export const getProfileContextOp = defineOperation({
  name: "get_profile_context",
  title: "Read voice, niche, traits, connected accounts",
  summary: "Read voice, niche, traits, connected accounts",
  description:
    "Reads who the user is as a writer: voice summary, tone, up to 5 sample posts, niche, traits, content pillars, " +
    "time zone, plan, which networks are connected and ready to publish, every account drafts can go to (accounts, with each " +
    "network's default), whether connected apps may publish, and " +
    "what is left of this month's allowance. Use it before writing in the user's voice by hand or to check the allowance " +
    "before generating. Name and picture appear only with the profile scope. It returns no drafts or analytics.",
  permission: "content:read",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({}),
  output: z.strictObject({
    user: z.strictObject({
      id: z.string(),
      email: z.string(),
      name: z.string().nullable().describe("Only with the profile scope"),
      image_url: z.string().nullable().describe("Only with the profile scope"),
    }),
    plan: z.string(),
    timezone: z.string().describe("IANA time zone, e.g. Europe/Berlin"),
    voice: z.strictObject({ summary: z.string().nullable(), tone: z.array(z.string()), sample_posts: z.array(z.string()).max(5) }),
    niche: z.string().nullable(),
    traits: z.array(z.string()),
    pillars: z.array(z.strictObject({ name: z.string(), description: z.string().nullable() })),
    connected_accounts: z.array(z.strictObject({ platform: Platform, handle: z.string().nullable(), connected: z.boolean(), ready_to_publish: z.boolean() })),
    accounts: z
      .array(
        z.strictObject({
          account_id: z.string().describe("Pass it as account_id to create_draft, update_draft or the generators"),
          platform: Platform,
          network: Network.describe("The network the account is on: a micro draft goes to X or Bluesky, as its account_id says"),
          kind: z.enum(["person", "organization"]).describe("A member or user, or a LinkedIn company page they administer"),
          name: z.string().nullable(),
          handle: z.string().nullable(),
          default: z
            .boolean()
            .describe("Drafts without account_id go to their platform's default: one for pronet, one among the micro accounts of X and Bluesky together"),
          state: z.enum(["connected", "needs_reconnect"]),
        }),
      )
      .describe("Every account a draft can go to; a network may have several"),
    publishing_allowed: z.boolean(),
    allowance: z.strictObject({
      posts_remaining: z.number(),
      ai_actions_remaining: z.number(),
      credits_remaining: z.number(),
      resets_at: Timestamp.describe("Start of the next calendar month, UTC"),
    }),
  }),
  run: (ctx) => getProfileContext(ctx),
});
