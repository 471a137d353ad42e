import { redactSecrets } from "@/lib/core/redact";
import { scopeProblem, type Need } from "@/lib/domain/networks/scopes";
import type { EngagementRead, MetricsRequest } from "@/lib/domain/networks/platform";
import type { NetworkName } from "@/lib/domain/networks";
import { errorText } from "./http";
import type { Answer } from "./request";

// What the adapters share when they read posts' engagement: a read never throws, and whatever
// stops it becomes a note on each post it was for, which the owner and get_post_metrics see.

export type Reads = Map<string, EngagementRead>;

/** The same note for every post of the request. */
export const noteAll = (req: MetricsRequest, note: string): Reads => new Map(req.posts.map((p) => [p.postId, { note }]));

/** A refused read, in words: a rate limit is read again at the next scheduled time, never at once. */
export async function readRefusal(network: string, res: Answer): Promise<string> {
  if (res.status === 429) return `${network} limited the reads (429: too many requests); the next scheduled read tries again.`;
  return `${network} refused the read (${res.status}: ${await errorText(res)}).`;
}

/** Runs a read; a call that failed outright (timeout, connection, token) is a note for every post. */
export async function reading(network: string, req: MetricsRequest, read: () => Promise<Reads>): Promise<Reads> {
  try {
    return await read();
  } catch (e) {
    return noteAll(req, `${network} could not be read: ${redactSecrets(String((e as Error)?.message ?? e), 300)}`);
  }
}

/** Why the connection cannot make this read (a permission it was not granted), or null. */
export function readScopeProblem(p: NetworkName, scope: string | null, need: Need): string | null {
  const problem = scopeProblem(p, scope, [need]);
  return problem && problem.replace(/without the permission to [^(]+\(/, "without the permission to read its posts' engagement (");
}

/** A count from a network's answer: a whole number, else null (not given). */
export const count = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? Math.min(v, 2_147_483_647) : null);
