import { and, eq } from "drizzle-orm";
import { beforeEach } from "vitest";
import { z } from "zod";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { postDrafts, postMetrics, tweetDrafts } from "@/drizzle/schema";
import { collectDue } from "@/lib/domain/metrics/collect";
import { getPostMetricsOp } from "@/lib/operations/analytics/get-post-metrics";
import { call, expectOk, type TestUser } from "./api";

// Engagement reads in tests: the collector's pass at a chosen time, what it stored, and what
// get_post_metrics answers.

/** One collector pass as if it were `at`. */
export const collectAt = async (at: Date) => collectDue(await db(), { ...ports(), clock: () => at });

/** The stored reads of one of the user's posts, oldest first. */
export const metricRows = async (u: TestUser, id: string) =>
  (await db())
    .select()
    .from(postMetrics)
    .where(and(eq(postMetrics.userId, u.id), eq(postMetrics.draftId, id)))
    .orderBy(postMetrics.collectedAt);

/** get_post_metrics over REST, as the user. */
export const metricsOf = async (u: TestUser, args: Record<string, unknown>) =>
  expectOk(await call("get_post_metrics", args, { token: u.token }), getPostMetricsOp.output) as z.infer<typeof getPostMetricsOp.output>;

/** A pass reads every owner's due posts: each test starts with none left from the one before. */
export function withNoEarlierReads() {
  beforeEach(async () => {
    for (const t of [postDrafts, tweetDrafts]) await (await db()).update(t).set({ metricsDone: true });
  });
}
