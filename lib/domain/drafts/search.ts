import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { articles, ideas, series, type postDrafts, type tweetDrafts } from "@/drizzle/schema";
import { networkOfDraft, type DraftType } from "@/lib/domain/networks";
import { rowsOf } from "@/lib/adapters/db/rows";
import { bind, compile, type Compiled } from "@/lib/adapters/db/compiled";
import { draftTable } from "./drafts";
import { decodeCursor, encodeCursor, offsetOf } from "../cursor";
import type { Ctx } from "../context";
import { sha256 } from "../hash";
import type { ItemType } from "./items";
import { excerpt, preview } from "./text";

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
  /** The owner's pages only: snippets keep their line breaks. */
  keepLines?: boolean;
};

// Where each item type lives, and which of its columns play which part in a result. Every
// table has id, user_id, title, updated_at, a generated `search` vector and a
// (user_id, updated_at) index.
type Table = typeof postDrafts | typeof tweetDrafts | typeof articles | typeof ideas | typeof series;
type Source = { table: Table; text: AnyColumn; status: SQL; platform: SQL; scheduled: SQL; pillar: AnyColumn | null; account?: AnyColumn };
const NO_TIME = sql`null::timestamptz`;
/** A draft table: its network's name is the item's platform. */
function draftSource(type: DraftType): Source {
  const t = draftTable(type);
  const platform = networkOfDraft(type).platform;
  return {
    table: t,
    text: t.body,
    status: sql`${t.status}`,
    platform: sql`${platform}::text`,
    scheduled: sql`${t.scheduledFor}`,
    pillar: t.pillar,
    account: t.accountId,
  };
}
const SOURCES: Record<ItemType, Source> = {
  post: draftSource("post"),
  tweet: draftSource("tweet"),
  article: { table: articles, text: articles.body, status: sql`${articles.status}`, platform: sql`null`, scheduled: NO_TIME, pillar: null },
  idea: { table: ideas, text: ideas.body, status: sql`${ideas.status}`, platform: sql`null`, scheduled: NO_TIME, pillar: ideas.pillar },
  series: {
    table: series,
    text: series.description,
    status: sql`case when ${series.completedAt} is not null then 'completed' when ${series.isActive} then 'active' else 'paused' end`,
    platform: sql`null`,
    scheduled: NO_TIME,
    pillar: null,
  },
};

/**
 * How many of the most recent matches, of all types together, are ranked by relevance. The
 * walk reads about RANKED / (share of items matching) rows, a random page read each, and
 * ranks RANKED: a larger window costs every search a little more (docs/performance.md,
 * "Search").
 */
export const RANKED = 50;

// Opaque cursors: an offset bound to the query it came from.
const encode = (offset: number, fingerprint: string) => encodeCursor("search", { o: offset, f: fingerprint });
const decode = (cursor: string, fingerprint: string) =>
  decodeCursor(
    cursor,
    "search",
    (c) => (c.f === fingerprint ? offsetOf(c.o) : undefined),
    "Unknown cursor: pass next_cursor from the previous page of the same search",
  );

/**
 * Full-text search over the caller's items (PostgreSQL text search, GIN-indexed generated
 * columns), ranked by relevance then most recently updated. Without a query: most recent.
 */
export async function searchContent(ctx: Ctx, input: SearchInput) {
  const q = input.query?.trim() ?? "";
  const types = input.types?.length ? [...new Set(input.types)] : (Object.keys(SOURCES) as ItemType[]);
  const fingerprint = sha256({
    q,
    types,
    s: input.status ?? null,
    p: input.pillar ?? null,
    ...(input.statuses && { ss: input.statuses, o: input.orIds ?? [] }),
  }).slice(0, 16);
  const offset = input.cursor ? decode(input.cursor, fingerprint) : 0;
  const take = q ? Math.max(RANKED, offset + input.limit + 1) : offset + input.limit + 1;
  const searched = input.pillar ? types.filter((type) => SOURCES[type].pillar) : types; // the others have no pillar to match
  if (!searched.length) return { results: [], next_cursor: null };

  const shape: Shape = {
    types: searched,
    query: !!q,
    status: !!input.status,
    pillar: !!input.pillar,
    statuses: input.statuses?.length ?? null,
    ids: input.orIds?.length ?? 0,
    numbered: !!q && take > RANKED,
  };
  const values: Record<string, unknown> = { user: ctx.caller.userId, q, status: input.status, pillar: input.pillar, take, rows: input.limit + 1, offset };
  input.statuses?.forEach((v, i) => (values[`status${i}`] = v));
  input.orIds?.forEach((v, i) => (values[`id${i}`] = v));
  const list = rowsOf<Row>(await ctx.db.execute(bind(statementFor(shape), values)));
  const page = list.slice(0, input.limit);
  return {
    results: page.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
      snippet: input.keepLines ? excerpt(r.text, 200) : preview(r.text, 200),
      status: r.status,
      platform: r.platform,
      ...(r.platform && { account_id: r.account_id }),
      scheduled_for: r.scheduled_for,
      updated_at: r.updated_at,
    })),
    next_cursor: list.length > input.limit ? encode(offset + input.limit, fingerprint) : null,
  };
}

/** What the statement's text depends on: the types searched, which filters, how many values. */
type Shape = { types: ItemType[]; query: boolean; status: boolean; pillar: boolean; statuses: number | null; ids: number; numbered: boolean };

// Built once per shape (compiled.ts): the text is the same for every search of a shape, and
// building it from drizzle's parts was a visible share of a search's CPU. At most MAX_SHAPES kept
// (the owner's "Needs attention" varies with the number of waiting drafts).
const MAX_SHAPES = 200;
const statements = new Map<string, Compiled>();

function statementFor(shape: Shape): Compiled {
  const key = JSON.stringify(shape);
  let c = statements.get(key);
  if (!c) {
    if (statements.size >= MAX_SHAPES) statements.clear();
    statements.set(key, (c = compile(statement(shape))));
  }
  return c;
}

const value = (name: string) => sql.placeholder(name);

/**
 * One walk over all the types' items in recency order: each table's (user_id, updated_at)
 * index read backwards, merged (a Merge Append), stopping after `take` matches. So a query
 * reads about `take` matching rows however many items match: in a large store a common word
 * matches tens of thousands of items, and ranking them all was far too slow, on PGlite most
 * of all (docs/performance.md, "Search"). Relevance orders the RANKED most recent matches (all of them when there are fewer);
 * older matches follow, most recent first. A rare word takes the GIN indexes instead (the
 * planner's choice). The conditions stand outside the union so that the planner puts them
 * into every branch and still sees each branch's index order: written inside the branches,
 * PostgreSQL sorted every match instead.
 */
function statement(shape: Shape): SQL {
  const branches = shape.types.map((type) => {
    const s = SOURCES[type];
    const t = s.table;
    return sql`select ${t.id} as id, ${t.userId} as user_id, ${type}::text as type, ${t.title} as title, ${s.text} as body,
      ${s.status} as status, ${s.platform}::text as platform, ${s.scheduled} as scheduled, ${s.pillar ?? sql`null::text`} as pillar,
      ${s.account ?? sql`null::uuid`} as account_id, ${t.updatedAt} as ts, ${t.search} as search from ${t}`;
  });
  const tsq = sql`websearch_to_tsquery('english', ${value("q")})`;
  const where: SQL[] = [sql`user_id = ${value("user")}`];
  if (shape.query) where.push(sql`search @@ ${tsq}`);
  if (shape.status) where.push(sql`status = ${value("status")}`);
  if (shape.statuses !== null) {
    const statuses = Array.from({ length: shape.statuses }, (_, i) => sql`${value(`status${i}`)}`);
    const any = [sql`status in (${sql.join(statuses.length ? statuses : [sql`null`], sql`, `)})`];
    if (shape.ids)
      any.push(
        sql`id in (${sql.join(
          Array.from({ length: shape.ids }, (_, i) => sql`${value(`id${i}`)}::uuid`),
          sql`, `,
        )})`,
      );
    where.push(sql`(${sql.join(any, sql` or `)})`);
  }
  if (shape.pillar) where.push(sql`pillar = ${value("pillar")}`);
  const recent = sql`ts desc, id`;
  // Every row read is among the RANKED most recent when no more are read (the first pages):
  // then no row numbers are needed to tell which to rank.
  const relevance = sql`ts_rank(search, ${tsq})`;
  const rank = !shape.query
    ? sql`0`
    : shape.numbered
      ? sql`case when row_number() over (order by ${recent}) <= ${RANKED} then ${relevance} else -1 end`
      : relevance;
  // The page is cut before its rows are formatted: PostgreSQL would otherwise format every
  // row read before sorting (slow under PGlite's WebAssembly).
  const order = sql`order by rank desc, ts desc, id`;
  return sql`select id, type, title, left(body, 400) as text, status, platform, account_id,
      ${utc(sql`scheduled`)} as scheduled_for, ${utc(sql`ts`)} as updated_at
    from (select *, (${rank})::real as rank from (select * from (${sql.join(branches, sql` union all `)}) items
      where ${sql.join(where, sql` and `)} order by ${recent} limit ${value("take")}) recent
      ${order} limit ${value("rows")} offset ${value("offset")}) p ${order}`;
}

type Row = {
  id: string;
  type: ItemType;
  title: string;
  text: string | null;
  status: string;
  platform: "pronet" | "micro" | null;
  account_id: string | null;
  scheduled_for: string | null;
  updated_at: string;
};

// Formatted in SQL: raw rows would be Date under PGlite and strings under postgres.js.
const utc = (col: SQL) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
