import { noteAll } from "./metrics";
import { and, asc, eq, inArray } from "drizzle-orm";
import { config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import { media, sandboxPosts } from "@/drizzle/schema";
import { postParts } from "./parts";
import type { CommentRequest, Platform, PlatformName, PublishRequest, Published } from "@/lib/domain/networks/platform";
import { isUuid } from "@/lib/core/ids";

export const sandboxUrl = (platform: PlatformName, postId: string) => `${config().origin}/sandbox/${platform}/${postId}`;

/**
 * The built-in platform used when no real one is configured: each part is stored in
 * sandbox_posts (a thread part replying to the part before) and shown at
 * {origin}/sandbox/{platform}/{id}. Media stay in this service's library; the post names them.
 * A first comment is stored as part -1, replying to the post (or the thread's last part).
 */
export function sandbox(name: PlatformName, db: Db): Platform {
  type Stored = Pick<typeof sandboxPosts.$inferInsert, "text" | "mediaIds" | "documentTitle" | "part" | "inReplyTo">;
  const store = async (req: PublishRequest | CommentRequest, post: Stored): Promise<Published> => {
    const [row] = await db
      .insert(sandboxPosts)
      .values({ userId: req.userId, platform: name, draftType: req.draftType, draftId: req.draftId, ...post })
      .returning({ id: sandboxPosts.id });
    return { postId: row.id, url: sandboxUrl(name, row.id) };
  };
  return {
    name,
    kind: "sandbox",
    probe: async () => ({ reachable: true, detail: "the built-in sandbox: posts stay in this service" }),
    publish: (req: PublishRequest) =>
      postParts(req, (k, replyTo) => {
        const part = req.parts[k];
        const doc = k === 0 ? req.document : null;
        const mediaIds = doc ? [doc.media.id] : part.media.map((m) => m.id);
        return store(req, { text: part.text, mediaIds, documentTitle: doc?.title ?? null, part: k, inReplyTo: replyTo });
      }),
    comment: (req: CommentRequest) => store(req, { text: req.text, mediaIds: [], part: COMMENT, inReplyTo: req.on }),
    // Nobody sees the sandbox: there is no engagement to read, and none is made up.
    metrics: async (req) => noteAll(req, SANDBOX_NO_METRICS),
  };
}

export const SANDBOX_NO_METRICS = "It went to the built-in sandbox, which has no audience: there is no engagement to read.";

/** The `part` of a first comment: not a part of the post or thread. */
export const COMMENT = -1;

const columns = {
  id: sandboxPosts.id,
  platform: sandboxPosts.platform,
  text: sandboxPosts.text,
  createdAt: sandboxPosts.createdAt,
  userId: sandboxPosts.userId,
  draftType: sandboxPosts.draftType,
  draftId: sandboxPosts.draftId,
  mediaIds: sandboxPosts.mediaIds,
  documentTitle: sandboxPosts.documentTitle,
  part: sandboxPosts.part,
  inReplyTo: sandboxPosts.inReplyTo,
};
export type SandboxPost = Awaited<ReturnType<typeof findSandboxPost>>;

/**
 * One sandbox post by its id, for its public page. Like a real published post it is public
 * to whoever has its link; the id is a random UUID, and nothing lists the posts.
 */
export async function findSandboxPost(db: Db, platform: string, id: string) {
  if ((platform !== "pronet" && platform !== "micro") || !isUuid(id)) return null;
  const [row] = await db
    .select(columns)
    .from(sandboxPosts)
    .where(and(eq(sandboxPosts.id, id), eq(sandboxPosts.platform, platform)));
  return row ?? null;
}

/**
 * The whole thread a sandbox post belongs to, in order: from its first part down the replies
 * (as a reader of a real thread sees it), then its first comment, with what the page shows of
 * each medium.
 */
export async function sandboxThread(db: Db, post: NonNullable<SandboxPost>) {
  const rows = await db
    .select(columns)
    .from(sandboxPosts)
    .where(eq(sandboxPosts.draftId, post.draftId))
    .orderBy(asc(sandboxPosts.part), asc(sandboxPosts.createdAt));
  const comments = rows.filter((r) => r.part === COMMENT);
  if (post.part === COMMENT) post = rows.find((r) => r.id === post.inReplyTo) ?? post;
  const parts = rows.filter((r) => r.part !== COMMENT);
  const byId = new Map(parts.map((r) => [r.id, r]));
  let root = post;
  for (let i = 0; i < parts.length && root.inReplyTo && byId.has(root.inReplyTo); i++) root = byId.get(root.inReplyTo)!;
  const thread = [root];
  for (let next = parts.find((r) => r.inReplyTo === root.id); next && thread.length <= parts.length; next = parts.find((r) => r.inReplyTo === next!.id))
    thread.push(next);
  thread.push(...comments);
  const ids = [...new Set(thread.flatMap((p) => p.mediaIds))];
  const described = ids.length
    ? await db
        .select({ id: media.id, contentType: media.contentType, altText: media.altText, pages: media.pages, filename: media.filename })
        .from(media)
        .where(and(eq(media.userId, post.userId), inArray(media.id, ids)))
    : [];
  const info = new Map(described.map((m) => [m.id, m]));
  return thread.map((p) => ({ ...p, media: p.mediaIds.map((id) => info.get(id) ?? { id, contentType: "", altText: null, pages: null, filename: null }) }));
}
