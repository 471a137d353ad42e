import { z } from "zod";
import { PROBLEM_CODES, previewPublish } from "@/lib/domain/publishing/preview";
import { defineOperation } from "../define";
import { DraftType, Network, Timestamp, Uuid } from "../schemas";

const Finding = z.strictObject({
  code: z.enum(PROBLEM_CODES).describe("Stable; the message says it in plain language"),
  message: z.string(),
  part: z.number().int().nullable().describe("The index of the part it is about (parts[].index); null: the whole draft"),
});

const Media = z.strictObject({
  url: z.string(),
  kind: z.enum(["image", "document"]),
  alt_text: z.string().nullable().describe("The description sent with it (null: none)"),
  title: z.string().nullable().describe("A document's title as sent; null for images"),
  found: z.boolean().describe("Still among the owner's uploads (false: publishing would fail)"),
});

const Part = z.strictObject({
  index: z.number().int().describe("1: the post or first tweet; then a thread's further parts; the first comment last"),
  kind: z.enum(["post", "thread_part", "first_comment"]),
  text: z.string().describe("The text as it is sent (X and Bluesky: NFC-normalised)"),
  length: z
    .strictObject({ count: z.number().int(), max: z.number().int(), unit: z.string() })
    .describe("Its length as the network counts it (X: weighted, links 23; Bluesky: graphemes; LinkedIn: characters), and the network's limit"),
  media: z.array(Media),
  already_posted: z.boolean().describe("Posted by an earlier attempt of this thread: never sent again"),
});

export const previewPublishOp = defineOperation({
  name: "preview_publish",
  title: "Preview what publishing a draft would do",
  summary: "Preview what publishing a draft would do",
  description:
    "Says, without publishing or changing anything, what publish_now would do with a post or tweet draft: the network and account it goes " +
    "to (or the sandbox), each part as it would be sent (text, images with their alt texts, document, LinkedIn link card, first comment), " +
    "every problem that would make the network refuse it (length, media, cashtags, X's reply rule, missing permissions, an expired " +
    "connection, no account), and on X the price estimate and the month's spend against the owner's cap, and the network's posting " +
    "window where known. Call it before asking the owner to approve publish_now or schedule_content, fix what `problems` lists with " +
    "update_draft first, and tell the owner the cost and the warnings.",
  permission: "content:read",
  confirmation: false,
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  input: z.strictObject({ type: DraftType, id: Uuid }),
  output: z.strictObject({
    type: DraftType,
    id: z.string(),
    status: z.string().describe("The draft's status now"),
    publishable: z.boolean().describe("No problem found: publish_now, once the owner approves it, would send it"),
    account: z
      .strictObject({
        account_id: z.string().nullable().describe("null: the built-in sandbox, with no account of its own"),
        name: z.string().nullable(),
        handle: z.string().nullable(),
        network: Network,
        network_name: z.string().describe("LinkedIn, X, Bluesky"),
        sandbox: z.boolean().describe("The built-in sandbox stands in for the network: nothing reaches it"),
      })
      .nullable()
      .describe("Where it goes; null when no account is connected (see problems)"),
    parts: z.array(Part),
    link_card: z
      .strictObject({ source: z.string(), title: z.string(), description: z.string(), image: z.string().nullable() })
      .nullable()
      .describe("A LinkedIn post's link card as it goes out; null: none"),
    problems: z.array(Finding).describe("What would make publishing fail or be refused; empty when publishable"),
    warnings: z.array(Finding).describe("What the network may refuse, or what goes out differently than it looks"),
    cost: z
      .strictObject({
        estimate_usd: z.number().describe("X's price of the whole draft, every part and the first comment"),
        text: z.string().describe("As the approval page says it: about $0.20 on X: it contains a link"),
        posts: z.array(z.strictObject({ part: z.number().int(), usd: z.number(), has_link: z.boolean() })),
      })
      .nullable()
      .describe("On X only (null: LinkedIn, Bluesky and the sandbox charge nothing)"),
    spend: z
      .strictObject({
        month: z.string().describe("YYYY-MM, UTC"),
        spent_usd: z.number().describe("This service's estimate of what the account's posts and reads cost this month"),
        cap_usd: z.number().nullable().describe("The owner's monthly cap for the account; null: none"),
        left_usd: z.number().nullable(),
        after_usd: z.number().describe("The month's estimate once this publish went out (parts already posted are not charged again)"),
      })
      .nullable()
      .describe("The X account's month; null elsewhere"),
    rate_limits: z
      .array(
        z.strictObject({
          window: z
            .enum(["posts_24h", "posts_15m"])
            .describe("posts_24h: X's 24-hour cap on an account's posts; posts_15m: X's 15-minute window on creating them"),
          limit: z.number().int().nullable(),
          remaining: z.number().int(),
          resets_at: Timestamp,
        }),
      )
      .describe("The network's windows for the account as its last answer stated them; empty when none is known"),
  }),
  run: (ctx, input) => previewPublish(ctx, input),
});
