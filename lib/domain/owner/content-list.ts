import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { postDrafts, tweetDrafts } from "@/drizzle/schema";
import { rowsOf } from "@/lib/adapters/db/rows";
import { isUuid } from "@/lib/core/ids";
import type { Ctx } from "../context";
import { draftTable, type DraftType } from "../drafts/drafts";

// What the owner's lists show beside search_content's results: how many drafts each status
// tab holds, and per row its first image and how many parts a thread has.

/**
 * How many of each type's most recent drafts the tab counts read. An owner with more sees
 * "2000+": a lower bound, never a slow page (the counts read the (user_id, updated_at) index
 * from its newest end, as the list does).
 */
export const COUNTED = 2000;

export type Tab = { key: string; statuses: readonly string[] | null; orIds?: string[] };
export type TabCount = { n: number; more: boolean };

/** Each tab's number of the owner's drafts of `types` (matching `query`, when given). */
export async function tabCounts(ctx: Ctx, input: { types: DraftType[]; query?: string; tabs: Tab[] }): Promise<Record<string, TabCount>> {
  const out: Record<string, TabCount> = Object.fromEntries(input.tabs.map((t) => [t.key, { n: 0, more: false }]));
  const q = input.query?.trim();
  for (const type of input.types) {
    const t = draftTable(type);
    const cond = (tab: Tab): SQL => {
      const parts: SQL[] = [];
      const ids = (tab.orIds ?? []).filter(isUuid);
      if (tab.statuses) {
        const any = [sql`status in (${sql.join(tab.statuses.length ? tab.statuses.map((s) => sql`${s}`) : [sql`null`], sql`, `)})`];
        if (ids.length)
          any.push(
            sql`id in (${sql.join(
              ids.map((i) => sql`${i}::uuid`),
              sql`, `,
            )})`,
          );
        parts.push(sql`(${sql.join(any, sql` or `)})`);
      }
      if (q) parts.push(sql`search @@ websearch_to_tsquery('english', ${q})`);
      return parts.length ? sql.join(parts, sql` and `) : sql`true`;
    };
    const counts = input.tabs.map((tab, i) => sql`count(*) filter (where ${cond(tab)})::int as ${sql.identifier(`c${i}`)}`);
    const [row] = rowsOf<Record<string, number>>(
      await ctx.db.execute(
        sql`select count(*)::int as read, ${sql.join(counts, sql`, `)} from (select id, status, search from ${t}
          where ${t.userId} = ${ctx.caller.userId} order by ${t.updatedAt} desc limit ${COUNTED}) recent`,
      ),
    );
    const full = Number(row.read) >= COUNTED;
    input.tabs.forEach((tab, i) => {
      out[tab.key].n += Number(row[`c${i}`]);
      out[tab.key].more ||= full;
    });
  }
  return out;
}

/** A row's picture and shape: its first image (any part's, for a thread), a PDF, a thread's parts. */
export type ListDetail = { image: string | null; document: boolean; parts: number };

/** The details of the owner's drafts among `items` (a page of a list: at most a few dozen). */
export async function listDetails(ctx: Ctx, items: { type: string; id: string }[]): Promise<Map<string, ListDetail>> {
  const out = new Map<string, ListDetail>();
  const ids = (type: DraftType) => items.filter((i) => i.type === type && isUuid(i.id)).map((i) => i.id);
  const posts = ids("post");
  const tweets = ids("tweet");
  const [p, t] = await Promise.all([
    posts.length
      ? ctx.db
          .select({ id: postDrafts.id, images: postDrafts.imageUrls, document: postDrafts.documentUrl })
          .from(postDrafts)
          .where(and(eq(postDrafts.userId, ctx.caller.userId), inArray(postDrafts.id, posts)))
      : [],
    tweets.length
      ? ctx.db
          .select({ id: tweetDrafts.id, images: tweetDrafts.imageUrls, thread: tweetDrafts.thread })
          .from(tweetDrafts)
          .where(and(eq(tweetDrafts.userId, ctx.caller.userId), inArray(tweetDrafts.id, tweets)))
      : [],
  ]);
  for (const r of p) out.set(r.id, { image: r.images[0] ?? null, document: !!r.document, parts: 1 });
  for (const r of t)
    out.set(r.id, { image: r.images[0] ?? r.thread.find((x) => x.image_urls.length)?.image_urls[0] ?? null, document: false, parts: 1 + r.thread.length });
  return out;
}
