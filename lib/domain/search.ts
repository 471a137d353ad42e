import { sql, type SQL } from "drizzle-orm";
import { invalid } from "@/lib/errors";
import type { Ctx } from "./context";
import { sha256 } from "./hash";
import type { ItemType } from "./items";
import { preview } from "./text";

export type SearchInput = {
  query?: string;
  types?: ItemType[];
  status?: string;
  pillar?: string;
  limit: number;
  cursor?: string;
  /** The owner's pages only (not in the operation's schema): any of these statuses... */
  statuses?: string[];
  /** ...or one of these ids (drafts waiting for an approval), for "Needs attention". */
  orIds?: string[];
};

// Where each item type lives, and which of its columns play which part in a result.
const SOURCES: Record<ItemType, { table: string; text: string; platform: string; scheduled: string; pillar: string | null }> = {
  post: { table: "post_drafts", text: "body", platform: "'pronet'", scheduled: "scheduled_for", pillar: "pillar" },
  tweet: { table: "tweet_drafts", text: "body", platform: "'micro'", scheduled: "scheduled_for", pillar: "pillar" },
  article: { table: "articles", text: "body", platform: "null", scheduled: "null::timestamptz", pillar: null },
  idea: { table: "ideas", text: "body", platform: "null", scheduled: "null::timestamptz", pillar: "pillar" },
  series: {
    table: "series",
    text: "description",
    platform: "null",
    scheduled: "null::timestamptz",
    pillar: null,
  },
};
const SERIES_STATUS = "case when completed_at is not null then 'completed' when is_active then 'active' else 'paused' end";

/** Opaque cursors: an offset bound to the query it came from. */
function encodeCursor(offset: number, fingerprint: string) {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint })).toString("base64url");
}
function decodeCursor(cursor: string, fingerprint: string): number {
  try {
    const c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    // Safe integers only: a forged huge offset would overflow PostgreSQL's bigint (a 500).
    if (Number.isSafeInteger(c.o) && c.o >= 0 && c.f === fingerprint) return c.o;
  } catch {}
  throw invalid([{ path: "cursor", message: "Unknown cursor: pass next_cursor from the previous page of the same search" }]);
}

/**
 * Full-text search over the caller's items (PostgreSQL text search, GIN-indexed generated
 * columns), ranked by relevance then most recently updated. Without a query: most recent.
 */
export async function searchContent(ctx: Ctx, input: SearchInput) {
  const q = input.query?.trim() ?? "";
  const types = input.types?.length ? [...new Set(input.types)] : (Object.keys(SOURCES) as ItemType[]);
  const fingerprint = sha256({ q, types, s: input.status ?? null, p: input.pillar ?? null, ...(input.statuses && { ss: input.statuses, o: input.orIds ?? [] }) }).slice(0, 16);
  const offset = input.cursor ? decodeCursor(input.cursor, fingerprint) : 0;
  const tsq = sql`websearch_to_tsquery('english', ${q})`;

  const parts: SQL[] = [];
  for (const type of types) {
    const s = SOURCES[type];
    if (input.pillar && !s.pillar) continue; // this type has no pillar, so nothing matches
    const status = sql.raw(type === "series" ? SERIES_STATUS : "status");
    const where: SQL[] = [sql`user_id = ${ctx.caller.userId}`];
    if (q) where.push(sql`search @@ ${tsq}`);
    if (input.status) where.push(sql`${status} = ${input.status}`);
    if (input.statuses) {
      const any = [sql`${status} in (${sql.join(input.statuses.length ? input.statuses.map((v) => sql`${v}`) : [sql`null`], sql`, `)})`];
      if (input.orIds?.length) any.push(sql`id in (${sql.join(input.orIds.map((v) => sql`${v}::uuid`), sql`, `)})`);
      where.push(sql`(${sql.join(any, sql` or `)})`);
    }
    if (input.pillar && s.pillar) where.push(sql`${sql.raw(s.pillar)} = ${input.pillar}`);
    parts.push(sql`select id, ${type}::text as type, title, left(${sql.raw(s.text)}, 400) as text, ${status} as status,
      ${sql.raw(s.platform)}::text as platform, ${utc(sql.raw(s.scheduled))} as scheduled_for,
      ${utc(sql.raw("updated_at"))} as updated_at, updated_at as ts,
      ${q ? sql`ts_rank(search, ${tsq})` : sql`0::real`} as rank
      from ${sql.raw(s.table)} where ${sql.join(where, sql` and `)}`);
  }
  if (!parts.length) return { results: [], next_cursor: null };

  const result: unknown = await ctx.db.execute(sql`select * from (${sql.join(parts, sql` union all `)}) r
    order by rank desc, ts desc, id limit ${input.limit + 1} offset ${offset}`);
  // postgres.js answers an array of rows, PGlite an object holding them.
  const list = (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
  const page = list.slice(0, input.limit);
  return {
    results: page.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
      snippet: preview(r.text, 200),
      status: r.status,
      platform: r.platform,
      scheduled_for: r.scheduled_for,
      updated_at: r.updated_at,
    })),
    next_cursor: list.length > input.limit ? encodeCursor(offset + input.limit, fingerprint) : null,
  };
}

type Row = {
  id: string;
  type: ItemType;
  title: string;
  text: string | null;
  status: string;
  platform: "pronet" | "micro" | null;
  scheduled_for: string | null;
  updated_at: string;
};

// Formatted in SQL: raw rows would be Date under PGlite and strings under postgres.js.
const utc = (col: SQL) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
