import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { media } from "@/drizzle/schema";
import { PublishError, type MediaItem } from "./types";

/**
 * The owner's stored media (table `media`) as platforms take them: the description now, the
 * bytes only when an adapter uploads them. Scoped by user: another user's id is missing.
 * A medium deleted since it was attached fails the publish (what was approved cannot go out).
 */
export async function loadMedia(db: Db, userId: string, ids: string[]): Promise<Map<string, MediaItem & { pages: number | null; filename: string | null }>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, MediaItem & { pages: number | null; filename: string | null }>();
  if (!unique.length) return out;
  const rows = await db
    .select({ id: media.id, contentType: media.contentType, altText: media.altText, pages: media.pages, frames: media.frames, filename: media.filename })
    .from(media)
    .where(and(eq(media.userId, userId), inArray(media.id, unique)));
  for (const r of rows) {
    out.set(r.id, {
      ...r,
      bytes: async () => {
        const [row] = await db
          .select({ data: media.data })
          .from(media)
          .where(and(eq(media.userId, userId), eq(media.id, r.id)));
        if (!row) throw new PublishError("failed", `The medium ${r.id} was deleted while it was being published.`);
        return row.data;
      },
    });
  }
  const missing = unique.filter((id) => !out.has(id));
  if (missing.length)
    throw new PublishError("failed", `The draft names media that no longer exist (${missing.join(", ")}); remove them from the draft or upload them again.`);
  return out;
}
