import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { AppError, notFound } from "@/lib/core/errors";
import { series, seriesTopics, type TopicStatus } from "@/drizzle/schema";
import { decodeCursor, encodeCursor, offsetOf } from "../cursor";
import type { Ctx } from "../context";
import { iso } from "../drafts/text";

// Series rules (docs/interface.md, Series), in one place:
// - order_index is 0-based and contiguous; every change renumbers.
// - a topic is "finished" when done or skipped; completed_topics counts finished topics, so
//   completed_topics == total_topics exactly when completed_at is set (and total > 0).
// - completed_at is recomputed after every change: set (once) when all topics are finished,
//   cleared when a topic is added or reopened.
// - another user's series or topic answers exactly like a missing one.

export const MAX_TOPICS = 100;
type SeriesRow = Omit<typeof series.$inferSelect, "search">;
type TopicRow = typeof seriesTopics.$inferSelect;
type NewTopic = { title: string; description?: string | null };

const finished = (t: { status: TopicStatus }) => t.status === "done" || t.status === "skipped";

export function topicView(t: TopicRow) {
  return {
    id: t.id,
    order_index: t.orderIndex,
    title: t.title,
    description: t.description,
    status: t.status,
    pronet_completed: t.pronetCompleted,
    micro_completed: t.microCompleted,
    pronet_post_id: t.pronetPostId,
    micro_post_id: t.microPostId,
  };
}

export function seriesView(s: SeriesRow, topics: TopicRow[]) {
  return {
    id: s.id,
    title: s.title,
    description: s.description,
    pronet_enabled: s.pronetEnabled,
    micro_enabled: s.microEnabled,
    is_active: s.isActive,
    completed_at: iso(s.completedAt),
    total_topics: topics.length,
    completed_topics: topics.filter(finished).length,
  };
}

const topicsOf = (tx: Db, seriesId: string) =>
  tx.select().from(seriesTopics).where(eq(seriesTopics.seriesId, seriesId)).orderBy(asc(seriesTopics.orderIndex), asc(seriesTopics.createdAt));

/** The caller's series, locked so that concurrent edits of one series run one after another. */
async function loadOwn(tx: Db, userId: string, seriesId: string) {
  const [s] = await tx
    .select()
    .from(series)
    .where(and(eq(series.id, seriesId), eq(series.userId, userId)))
    .for("update");
  if (!s) throw notFound("series");
  return s;
}

/** Writes order_index 0..n-1 in the given order. */
async function renumber(tx: Db, ids: string[]) {
  for (const [i, id] of ids.entries()) await tx.update(seriesTopics).set({ orderIndex: i }).where(eq(seriesTopics.id, id));
}

/** A topic is done when every enabled network is completed (never demoted from done here). */
const networksDone = (s: Pick<SeriesRow, "pronetEnabled" | "microEnabled">, t: Pick<TopicRow, "pronetCompleted" | "microCompleted">) =>
  (!s.pronetEnabled || t.pronetCompleted) && (!s.microEnabled || t.microCompleted) && (t.pronetCompleted || t.microCompleted);

/** Recomputes completed_at from the topics and returns the series as it now stands. */
async function settle(tx: Db, seriesId: string) {
  const topics = await topicsOf(tx, seriesId);
  const complete = topics.length > 0 && topics.every(finished);
  const [s] = await tx
    .update(series)
    .set({ completedAt: complete ? sql`coalesce(${series.completedAt}, now())` : null, updatedAt: sql`now()` })
    .where(eq(series.id, seriesId))
    .returning();
  return { series: seriesView(s, topics), topics: topics.map(topicView) };
}

async function insertTopics(tx: Db, s: SeriesRow, userId: string, topics: NewTopic[], position?: number) {
  const existing = await topicsOf(tx, s.id);
  if (existing.length + topics.length > MAX_TOPICS) {
    throw new AppError(
      "action_failed",
      `A series holds at most ${MAX_TOPICS} topics; this one has ${existing.length}.`,
      "Remove topics or start a new series.",
    );
  }
  if (!topics.length) return;
  const rows = await tx
    .insert(seriesTopics)
    .values(topics.map((t, i) => ({ seriesId: s.id, userId, orderIndex: existing.length + i, title: t.title, description: t.description ?? null })))
    .returning({ id: seriesTopics.id });
  const at = Math.min(position ?? existing.length, existing.length);
  const ids = existing.map((t) => t.id);
  ids.splice(at, 0, ...rows.map((r) => r.id));
  await renumber(tx, ids);
}

export type ManageSeriesInput =
  | { action: "create"; title: string; description?: string; pronet_enabled: boolean; micro_enabled: boolean; topics?: NewTopic[] }
  | { action: "update"; series_id: string; title?: string; description?: string | null; pronet_enabled?: boolean; micro_enabled?: boolean; is_active?: boolean }
  | { action: "add_topics"; series_id: string; topics: NewTopic[]; position?: number }
  | { action: "update_topic"; series_id: string; topic_id: string; title?: string; description?: string | null; status?: TopicStatus }
  | { action: "reorder_topics"; series_id: string; topic_ids: string[] }
  | { action: "remove_topic"; series_id: string; topic_id: string };

function needNetwork(p: boolean, m: boolean) {
  if (!p && !m) {
    throw new AppError("action_failed", "A series must be enabled for at least one network.", "Keep pronet_enabled or micro_enabled true.");
  }
}

async function ownTopic(tx: Db, seriesId: string, topicId: string) {
  const [t] = await tx
    .select()
    .from(seriesTopics)
    .where(and(eq(seriesTopics.id, topicId), eq(seriesTopics.seriesId, seriesId)));
  if (!t) throw notFound("topic in this series");
  return t;
}

export async function manageSeries(ctx: Ctx, input: ManageSeriesInput) {
  const userId = ctx.caller.userId;
  return ctx.db.transaction(async (tx) => {
    if (input.action === "create") {
      needNetwork(input.pronet_enabled, input.micro_enabled);
      const [s] = await tx
        .insert(series)
        .values({ userId, title: input.title, description: input.description ?? null, pronetEnabled: input.pronet_enabled, microEnabled: input.micro_enabled })
        .returning();
      await insertTopics(tx, s, userId, input.topics ?? []);
      return settle(tx, s.id);
    }
    const s = await loadOwn(tx, userId, input.series_id);
    switch (input.action) {
      case "update": {
        const p = input.pronet_enabled ?? s.pronetEnabled;
        const m = input.micro_enabled ?? s.microEnabled;
        needNetwork(p, m);
        await tx
          .update(series)
          .set({
            ...(input.title !== undefined && { title: input.title }),
            ...(input.description !== undefined && { description: input.description }),
            ...(input.is_active !== undefined && { isActive: input.is_active }),
            pronetEnabled: p,
            microEnabled: m,
          })
          .where(eq(series.id, s.id));
        // Disabling a network can leave a topic with every remaining network completed.
        for (const t of await topicsOf(tx, s.id)) {
          if (t.status === "in_progress" && networksDone({ pronetEnabled: p, microEnabled: m }, t)) {
            await tx
              .update(seriesTopics)
              .set({ status: "done", updatedAt: sql`now()` })
              .where(eq(seriesTopics.id, t.id));
          }
        }
        break;
      }
      case "add_topics":
        await insertTopics(tx, s, userId, input.topics, input.position);
        break;
      case "update_topic": {
        await ownTopic(tx, s.id, input.topic_id);
        await tx
          .update(seriesTopics)
          .set({
            ...(input.title !== undefined && { title: input.title }),
            ...(input.description !== undefined && { description: input.description }),
            ...(input.status !== undefined && { status: input.status }),
            updatedAt: sql`now()`,
          })
          .where(eq(seriesTopics.id, input.topic_id));
        break;
      }
      case "reorder_topics": {
        const current = (await topicsOf(tx, s.id)).map((t) => t.id);
        const given = new Set(input.topic_ids);
        if (given.size !== input.topic_ids.length || given.size !== current.length || !current.every((id) => given.has(id))) {
          throw new AppError(
            "action_failed",
            `topic_ids must list every topic of this series exactly once (it has ${current.length}).`,
            "fetch_item with type series lists its topics and their ids.",
          );
        }
        await renumber(tx, input.topic_ids);
        break;
      }
      case "remove_topic": {
        await ownTopic(tx, s.id, input.topic_id);
        // Drafts written for it keep their text; their link is cleared (ON DELETE SET NULL).
        await tx.delete(seriesTopics).where(eq(seriesTopics.id, input.topic_id));
        await renumber(
          tx,
          (await topicsOf(tx, s.id)).map((t) => t.id),
        );
        break;
      }
    }
    return settle(tx, s.id);
  });
}

/**
 * A topic, locked after its series: the order in which manage_series takes them (the series,
 * then its topics). Taken the other way round, a draft written for a topic while the series is
 * edited deadlocks on PostgreSQL, and the scheduler's batch of outcomes with it.
 */
async function lockTopic(tx: Db, where: SQL) {
  const [found] = await tx.select({ seriesId: seriesTopics.seriesId }).from(seriesTopics).where(where);
  if (!found) return undefined;
  await tx.select({ id: series.id }).from(series).where(eq(series.id, found.seriesId)).for("update");
  const [t] = await tx.select().from(seriesTopics).where(where).for("update");
  return t;
}

/** For a writer that locks a draft of this topic next: the series and the topic first. */
export const holdTopic = (tx: Db, topicId: string) => lockTopic(tx, eq(seriesTopics.id, topicId));

/**
 * A draft is being created for a topic: the topic must be the caller's; a pending or skipped
 * topic becomes in_progress (done stays done). Runs inside the draft's transaction.
 */
export async function startTopic(tx: Db, userId: string, topicId: string) {
  const t = await lockTopic(tx, and(eq(seriesTopics.id, topicId), eq(seriesTopics.userId, userId))!);
  if (!t) throw notFound("series topic (series_topic_id)");
  if (t.status !== "done" && t.status !== "in_progress") {
    await tx
      .update(seriesTopics)
      .set({ status: "in_progress", updatedAt: sql`now()` })
      .where(eq(seriesTopics.id, t.id));
    await settle(tx, t.seriesId);
  }
}

/**
 * Publishing hook: sets that network's completed flag and post id; the topic is done when
 * every enabled network is completed; the series completes when all topics are finished.
 * A topic that no longer exists is ignored (the draft outlived it).
 */
export async function markTopicPublished(tx: Db, topicId: string, platform: "pronet" | "micro", platformPostId: string): Promise<void> {
  const t = await lockTopic(tx, eq(seriesTopics.id, topicId));
  if (!t) return;
  const [s] = await tx.select().from(series).where(eq(series.id, t.seriesId));
  const next = {
    pronetCompleted: t.pronetCompleted || platform === "pronet",
    microCompleted: t.microCompleted || platform === "micro",
  };
  await tx
    .update(seriesTopics)
    .set({
      ...next,
      ...(platform === "pronet" ? { pronetPostId: platformPostId } : { microPostId: platformPostId }),
      status: networksDone(s, next) ? "done" : t.status === "done" ? "done" : "in_progress",
      updatedAt: sql`now()`,
    })
    .where(eq(seriesTopics.id, t.id));
  await settle(tx, t.seriesId);
}

export type ListSeriesInput = { include_inactive: boolean; limit: number; cursor?: string };

/** Newest first by creation (which never changes, so pages stay stable); offset cursor. */
export async function listSeries(ctx: Ctx, input: ListSeriesInput) {
  const userId = ctx.caller.userId;
  const offset = input.cursor ? decodeCursor(input.cursor, "series", (c) => offsetOf(c.o)) : 0;
  const rows = await ctx.db
    .select()
    .from(series)
    .where(and(eq(series.userId, userId), input.include_inactive ? undefined : eq(series.isActive, true)))
    .orderBy(desc(series.createdAt), desc(series.id))
    .limit(input.limit + 1)
    .offset(offset);
  const page = rows.slice(0, input.limit);
  const topics = page.length
    ? await ctx.db
        .select()
        .from(seriesTopics)
        .where(
          inArray(
            seriesTopics.seriesId,
            page.map((s) => s.id),
          ),
        )
        .orderBy(asc(seriesTopics.orderIndex))
    : [];
  return {
    series: page.map((s) => {
      const own = topics.filter((t) => t.seriesId === s.id);
      const next = own.find((t) => t.status === "pending" || t.status === "in_progress");
      return {
        ...seriesView(s, own),
        next_topic: next ? { id: next.id, title: next.title, order_index: next.orderIndex } : null,
        created_at: s.createdAt.toISOString(),
        updated_at: s.updatedAt.toISOString(),
      };
    }),
    next_cursor: rows.length > input.limit ? encodeCursor("series", { o: offset + input.limit }) : null,
  };
}
