import type { Db } from "@/lib/adapters/db";
import { PublishError, type Platform } from "@/lib/domain/networks/platform";
import type { Account } from "../tokens";

/** Bluesky: not published to yet. */
export function bluesky(_acc: Account, _db: Db): Platform {
  const refuse = async (): Promise<never> => {
    throw new PublishError("failed", "Publishing to Bluesky is not available yet.");
  };
  return {
    name: "micro",
    kind: "bluesky",
    publish: refuse,
    comment: refuse,
    probe: async () => ({ reachable: false, detail: "Bluesky is not available yet." }),
    metrics: async (req) => new Map(req.posts.map((p) => [p.postId, { note: "Bluesky's engagement is not read yet." }])),
  };
}
