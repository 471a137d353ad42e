import { and, eq } from "drizzle-orm";
import { notFound } from "@/lib/core/errors";
import { ideas, postDrafts, seriesTopics, tweetDrafts, users } from "@/drizzle/schema";
import type { Ctx } from "../context";
import type { Voice } from "../ports";
import { withDebit } from "../owner/allowances";
import { startTopic } from "../series/series";
import { chosenAccount, holdParentPost } from "../drafts/drafts";
import { networkOfAccount } from "../drafts/fit";
import { deriveTitle } from "../drafts/text";
import { draftCreated } from "@/lib/domain/webhooks/domain-events";
import { stillWanted } from "../apps/tokens";
import { bestPostTexts } from "../metrics/read";
import type { DraftType } from "@/lib/domain/networks";

// generate_post / generate_tweet (docs/interface.md, Generation). Order matters for money: everything that
// can be refused for free (ownership of ids) is checked before the allowance is debited; the
// debit is refunded when writing or saving fails, and when the app was disconnected while
// the model wrote (nothing is saved then). Nothing here publishes or schedules.
//
// untrusted_source: the topic and instructions come from the owner's own app session, so a
// generated draft is the owner's text. It is marked only when its source material was not
// written by the owner: condensing a post draft that itself carries untrusted_source passes
// that marker on.

/** The voice profile, and the owner's best-performing published posts of the format being written. */
export async function voiceOf(ctx: Ctx, format: DraftType): Promise<Voice> {
  const [u] = await ctx.db.select().from(users).where(eq(users.id, ctx.caller.userId));
  if (!u) throw notFound("account");
  const bestPosts = await bestPostTexts(ctx.db, ctx.caller.userId, format);
  return { summary: u.voiceSummary, tone: u.tone, samplePosts: u.samplePosts, niche: u.niche, traits: u.traits, bestPosts };
}

async function checkTopic(ctx: Ctx, topicId: string | undefined) {
  if (!topicId) return;
  const [t] = await ctx.db
    .select({ id: seriesTopics.id })
    .from(seriesTopics)
    .where(and(eq(seriesTopics.id, topicId), eq(seriesTopics.userId, ctx.caller.userId)));
  if (!t) throw notFound("series topic (series_topic_id)");
}

export type GeneratePostInput = {
  topic: string;
  instructions?: string;
  pillar?: string;
  save_as_draft: boolean;
  series_topic_id?: string;
  account_id?: string;
};

export async function generatePost(ctx: Ctx, input: GeneratePostInput) {
  await checkTopic(ctx, input.series_topic_id);
  const accountId = await chosenAccount(ctx, "post", input.account_id); // checked before anything is spent
  const voice = await voiceOf(ctx, "post");
  return withDebit(ctx, "generate_post", async () => {
    const body = await ctx.ports.model.write({ format: "post", voice, topic: input.topic, instructions: input.instructions, pillar: input.pillar }, ctx.signal);
    const title = deriveTitle(body);
    if (!input.save_as_draft) {
      await stillWanted(ctx.db, ctx); // nor is the text handed to a disconnected app
      return { draft_id: null, title, body, saved: false };
    }
    const id = await ctx.db.transaction(async (tx) => {
      await stillWanted(tx, ctx);
      if (input.series_topic_id) await startTopic(tx, ctx.caller.userId, input.series_topic_id);
      const [row] = await tx
        .insert(postDrafts)
        .values({ userId: ctx.caller.userId, title, body, pillar: input.pillar ?? null, seriesTopicId: input.series_topic_id, accountId })
        .returning({ id: postDrafts.id });
      await draftCreated(tx, ctx, "post", { id: row.id, title, status: "draft" });
      return row.id;
    });
    return { draft_id: id, title, body, saved: true };
  });
}

export type GenerateTweetInput = {
  topic?: string;
  from_post_id?: string;
  instructions?: string;
  series_topic_id?: string;
  account_id?: string;
  /** A thread instead of one tweet, of `parts` tweets (default THREAD_PARTS_DEFAULT). */
  as_thread?: true;
  parts?: number;
};

export const THREAD_PARTS_DEFAULT = 5;

export async function generateTweet(ctx: Ctx, input: GenerateTweetInput) {
  const uid = ctx.caller.userId;
  await checkTopic(ctx, input.series_topic_id);
  const accountId = await chosenAccount(ctx, "tweet", input.account_id); // checked before anything is spent
  // Written for the network it goes to (its account's, else the default's): X's limit or Bluesky's.
  const network = await networkOfAccount(ctx.db, uid, "tweet", accountId);
  let source: { id: string; body: string; pillar: string | null; untrustedSource: string | null } | undefined;
  if (input.from_post_id) {
    [source] = await ctx.db
      .select({ id: postDrafts.id, body: postDrafts.body, pillar: postDrafts.pillar, untrustedSource: postDrafts.untrustedSource })
      .from(postDrafts)
      .where(and(eq(postDrafts.id, input.from_post_id), eq(postDrafts.userId, uid)));
    if (!source) throw notFound("post draft (from_post_id)");
  }
  const voice = await voiceOf(ctx, "tweet");
  // A thread costs what one tweet does: one AI action and its credits.
  return withDebit(ctx, "generate_tweet", async () => {
    const brief = {
      format: "tweet" as const,
      voice,
      topic: input.topic,
      sourcePost: source?.body,
      pillar: source?.pillar ?? undefined,
      instructions: input.instructions,
      network,
    };
    const [text, ...later] = input.as_thread
      ? await ctx.ports.model.writeThread({ ...brief, parts: input.parts ?? THREAD_PARTS_DEFAULT }, ctx.signal)
      : [await ctx.ports.model.write(brief, ctx.signal)];
    const thread = later.map((t) => ({ text: t, image_urls: [] as string[] }));
    const untrusted = source?.untrustedSource ? `Condensed from a post draft holding text from: ${source.untrustedSource}` : null;
    const draftId = await ctx.db.transaction(async (tx) => {
      await stillWanted(tx, ctx);
      if (input.series_topic_id) await startTopic(tx, uid, input.series_topic_id);
      let parentId = source?.id;
      if (parentId)
        await holdParentPost(tx, uid, parentId, "from_post_id"); // it may have been deleted while the model wrote
      else {
        // Topic mode: the topic is kept as an idea (used: a draft came of it), and the tweet
        // gets a matching parent post draft, as create_draft does (docs/interface.md, Drafts).
        const [idea] = await tx
          .insert(ideas)
          .values({ userId: uid, title: deriveTitle(input.topic!), body: input.topic!, status: "used" })
          .returning({ id: ideas.id });
        const [parent] = await tx
          .insert(postDrafts)
          .values({ userId: uid, title: deriveTitle(text), body: text, ideaId: idea.id })
          .returning({ id: postDrafts.id });
        parentId = parent.id;
        await draftCreated(tx, ctx, "post", { id: parent.id, title: deriveTitle(text), status: "draft" });
      }
      const [row] = await tx
        .insert(tweetDrafts)
        .values({
          userId: uid,
          postDraftId: parentId,
          title: deriveTitle(text),
          body: text,
          thread,
          untrustedSource: untrusted,
          seriesTopicId: input.series_topic_id,
          accountId,
        })
        .returning({ id: tweetDrafts.id });
      await draftCreated(tx, ctx, "tweet", { id: row.id, title: deriveTitle(text), status: "draft" });
      return row.id;
    });
    // thread appears only for a thread (docs/interface.md, Versioning: added fields only where they apply).
    return { draft_id: draftId, text, from_post_id: source?.id ?? null, ...(input.as_thread && { thread: later }) };
  });
}
