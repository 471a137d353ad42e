import { and, eq } from "drizzle-orm";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { sandboxPosts } from "@/drizzle/schema";
import type { Platform, PlatformName, PublishRequest, Published } from "./types";
import { isUuid } from "@/lib/ids";

export const sandboxUrl = (platform: PlatformName, postId: string) => `${config().origin}/sandbox/${platform}/${postId}`;

/**
 * The built-in platform used when no real one is configured: the post is stored in
 * sandbox_posts and shown at {origin}/sandbox/{platform}/{id}.
 */
export function sandbox(name: PlatformName, db: Db): Platform {
  return {
    name,
    kind: "sandbox",
    async publish(req: PublishRequest): Promise<Published> {
      const [row] = await db
        .insert(sandboxPosts)
        .values({ userId: req.userId, platform: name, draftType: req.draftType, draftId: req.draftId, text: req.text })
        .returning({ id: sandboxPosts.id });
      return { postId: row.id, url: sandboxUrl(name, row.id) };
    },
  };
}

/**
 * One sandbox post by its id, for its public page. Like a real published post it is public
 * to whoever has its link; the id is a random UUID, and nothing lists the posts.
 */
export async function findSandboxPost(db: Db, platform: string, id: string) {
  if ((platform !== "pronet" && platform !== "micro") || !isUuid(id)) return null;
  const [row] = await db
    .select({
      id: sandboxPosts.id,
      platform: sandboxPosts.platform,
      text: sandboxPosts.text,
      createdAt: sandboxPosts.createdAt,
      userId: sandboxPosts.userId,
      draftType: sandboxPosts.draftType,
      draftId: sandboxPosts.draftId,
    })
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.id, id), eq(sandboxPosts.platform, platform)));
  return row ?? null;
}
