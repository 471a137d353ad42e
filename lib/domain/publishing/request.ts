import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { storedMediaId } from "@/lib/core/media-url";
import { PublishError, type MediaItem, type PublishProgress, type PublishRequest } from "@/lib/domain/networks/platform";
import { media } from "@/drizzle/schema";
import { draftTable } from "../drafts/drafts";
import { usableCard } from "../drafts/link-card";
import type { Claimed } from "./outcomes";
import { ClaimLost, type Hold } from "./hold";
import type { Ports } from "../ports";

// What goes out for a claimed draft, built from the claimed row (exactly what was approved):
// its parts (body, then thread parts), their media, a post's document, and what an earlier
// attempt already posted. Its onProgress stores each step in the draft's publish_progress
// before the adapter's next platform call.

const EMPTY: PublishProgress = { parts: [], media: {} };

/**
 * Media ids of image (or document) URLs, under this origin or an earlier one (loadMedia fails
 * the draft for an id that is no upload of its user). A URL that is no media address at all
 * (older drafts' image_url, from before uploads existed) was never sent to a platform: it is
 * still not sent, and the log says so.
 */
function mediaIds(c: Claimed, urls: string[]): string[] {
  const ids: string[] = [];
  for (const url of urls) {
    const id = storedMediaId(url);
    if (id) ids.push(id);
    else log("warn", "publish: media URL is not a stored medium; not sent", { draft: c.id, type: c.type });
  }
  return ids;
}

/**
 * The owner's stored media (table `media`) as platforms take them: the description now, the
 * bytes only when an adapter uploads them. Scoped by user: another user's id is missing.
 * A medium deleted since it was attached fails the publish (what was approved cannot go out).
 */
async function loadMedia(db: Db, userId: string, ids: string[]): Promise<Map<string, MediaItem & { pages: number | null; filename: string | null }>> {
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

export async function publishRequest(db: Db, c: Claimed, w: Pick<Ports, "clock">, hold: Hold<Pick<Claimed, "publishProgress">>): Promise<PublishRequest> {
  const first = c.imageUrls.length ? c.imageUrls : c.imageUrl ? [c.imageUrl] : [];
  const raw = [{ text: c.body, ids: mediaIds(c, first) }];
  if (c.type === "tweet" && "thread" in c) for (const p of c.thread) raw.push({ text: p.text, ids: mediaIds(c, p.image_urls) });
  const docUrl = c.type === "post" && "documentUrl" in c ? c.documentUrl : null;
  const docId = docUrl ? (mediaIds(c, [docUrl])[0] ?? null) : null;
  const progress = c.publishProgress ?? EMPTY;
  let stored: Awaited<ReturnType<typeof loadMedia>>;
  try {
    stored = await loadMedia(db, c.userId, [...raw.flatMap((p) => p.ids), ...(docId ? [docId] : [])]);
  } catch (e) {
    // A medium deleted after part of a thread went out: the reason still says what is out.
    const k = progress.parts.length;
    if (!(e instanceof PublishError) || !k) throw e;
    throw new PublishError(e.kind, `posted ${k === 1 ? "part 1" : `parts 1–${k}`} of ${raw.length}; the rest was not sent: ${e.message}`);
  }
  const doc = docId ? stored.get(docId)! : null;
  const t = draftTable(c.type);
  return {
    userId: c.userId,
    draftType: c.type,
    draftId: c.id,
    text: c.body,
    parts: raw.map((p) => ({ text: p.text, media: p.ids.map((id) => stored.get(id)!) })),
    document: doc ? { media: doc, title: ("documentTitle" in c && c.documentTitle) || doc.filename || c.title } : null,
    linkCard: c.type === "post" && "linkCard" in c ? usableCard(c) : null,
    progress,
    // Each step renews the claim with its record (the adapter's next call goes out only if
    // that matched). A claim taken meanwhile (the stuck sweep) stops the publish here; the
    // progress is still stored, scoped by id and user only: it is a fact about the platform
    // whatever the draft's status.
    onProgress: async (progress) => {
      c.publishProgress = progress;
      if (await hold.renew({ publishProgress: progress })) return;
      await db
        .update(t)
        .set({ publishProgress: progress })
        .where(and(eq(t.id, c.id), eq(t.userId, c.userId)));
      throw new ClaimLost();
    },
    now: w.clock(),
  };
}
