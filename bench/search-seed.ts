import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/adapters/db";
import { rowsOf } from "@/lib/adapters/db/rows";
import type { Store } from "./servers";

// 100,000 items for one user, written with a few set-based INSERTs (the domain layer would
// take minutes). Text is made of sentences drawn with a skewed distribution, so that some
// words are in most items ("customers": about 60 %), some in a fifth (the phrase "product
// launch") and one in very few ("kubernetes": about 0.2 %), like a real writer's archive.
export const COUNTS = { post: 50_000, tweet: 38_000, idea: 8_000, article: 3_980, series: 20 };

// Earlier sentences are drawn more often (index = floor(random()^1.6 * n)).
const SENTENCES = [
  "Our customers told us what they wanted, and then did something else.",
  "The team shipped a smaller version first and learned more in a week than in a quarter.",
  "Most customers never read the release notes, so we started writing them for ourselves.",
  "Hiring slowly felt expensive at the time and turned out to be the cheapest decision we made.",
  "What is one signal you trust more than what people tell you?",
  "We cut the roadmap in half and nobody noticed, except the engineers, who were relieved.",
  "A good meeting ends with a decision, an owner and a date.",
  "Pricing is a conversation with customers, not a spreadsheet exercise.",
  "Remote work made our writing better because everything important had to be written down.",
  "The best feedback came from people who had just cancelled their subscription.",
  "Our product launch went better than expected because we wrote the announcement first.",
  "Three years ago we built a feature nobody used; usage after launch was four percent.",
  "Every interview now ends with a concrete ask: a pre-order, an introduction, or real data.",
  "We instrument the prototype before the beta, not after.",
  "Sales cycles got shorter once we published our prices on the website.",
  "The hardest part was not the process but admitting our favourite ideas had the least evidence.",
  "Onboarding is where most churn starts, long before anyone clicks cancel.",
  "A weekly demo keeps everyone honest about what actually works.",
  "Fewer launches, but the last five all passed thirty percent weekly usage within a month.",
  "Documentation is a product too, and it deserves a product launch of its own.",
  "If the announcement sounds dull to us, it will sound dull to everyone else.",
  "Investors ask about growth; customers ask whether it works on Monday morning.",
  "We kill features in public, with a short note about what we stopped and why.",
  "Our support inbox is the best research tool we have.",
  "Marketing got easier when we stopped describing features and started describing outcomes.",
  "The first hundred users came from a single newsletter mention.",
  "Burnout rarely comes from hard work alone; it comes from work that does not matter.",
  "Analytics dashboards are only useful when someone is responsible for each number.",
  "We rewrote the billing system twice before we understood what finance needed.",
  "Career advice: write down what you learned every Friday.",
  "Design reviews go faster when the designer presents the problem before the solution.",
  "Security questionnaires taught us more about our architecture than any audit.",
  "A conference talk brought fewer leads than a single honest blog post.",
  "Open source contributors found bugs our test suite never could.",
  "Leadership is mostly deciding what not to do.",
];
// The rare word: in about 0.2 % of items.
const RARE = "We moved the whole deployment pipeline to kubernetes and regretted it for a month.";

const TITLES = [
  "Lessons from a failed launch",
  "What our customers taught us",
  "How we plan a quarter",
  "Notes on hiring",
  "Pricing experiments",
  "Why we write things down",
  "Weekly reflections",
  "On shipping small",
  "Growth without ads",
  "The onboarding problem",
  "Thoughts on remote teams",
  "A year of building in public",
];

const literal = (xs: string[]) => sql.raw(`(array[${xs.map((s) => `'${s.replaceAll("'", "''")}'`).join(", ")}]::text[])`);

/** `n` to `n + spread - 1` sentences, drawn per row (`g` keeps the subquery per row). */
const text = (n: number, spread: number) =>
  sql`(select string_agg(${literal(SENTENCES)}[1 + floor(power(random(), 1.6) * ${sql.raw(String(SENTENCES.length))})::int], ' ')
    from generate_series(1, ${sql.raw(String(n))} + g % ${sql.raw(String(spread))}) k)
    || case when random() < 0.002 then ${sql.raw(`' ${RARE}'`)} else '' end`;
const title = sql`${literal(TITLES)}[1 + g % ${sql.raw(String(TITLES.length))}] || ' ' || (1 + g % 53)`;
// Updated within the last two years, created a little before.
// (`0 * g` ties it to the row, so random() is drawn per row rather than once.)
const updated = sql`now() - (random() + 0 * g) * interval '730 days'`;
const pillar = sql`(array['Engineering', 'Growth', 'Leadership', 'Product', null])[1 + g % 5]`;

const TABLES = ["post_drafts", "tweet_drafts", "ideas", "articles", "series"];

/**
 * Writes the items and, on PostgreSQL, refreshes the planner's statistics;
 * answers a post's id (for fetch_item) and how many items match each of `queries`.
 */
export async function seedItems(store: Store, userId: string, queries: string[]) {
  const d = await openDatabase({ url: store.DATABASE_URL, dataDir: store.DATA_DIR ?? null });
  try {
    const u = sql`${userId}::uuid`;
    await d.db.execute(sql`select setseed(0.42)`);
    await d.db.execute(sql`insert into post_drafts (user_id, title, body, status, pillar, scheduled_for, created_at, updated_at)
      select ${u}, ${title}, ${text(3, 6)}, x.status, ${pillar},
        case when x.status = 'scheduled' then now() + (g % 30 + 1) * interval '1 day' end, x.updated - interval '1 day', x.updated
      from generate_series(1, ${COUNTS.post}) g,
        lateral (select case when g % 20 < 11 then 'published' when g % 20 < 18 then 'draft' when g % 20 < 19 then 'scheduled' else 'failed' end as status,
          ${updated} as updated) x`);
    await d.db.execute(sql`insert into tweet_drafts (user_id, post_draft_id, title, body, status, pillar, created_at, updated_at)
      select ${u}, p.id, p.title, ${text(1, 3)}, p.status, p.pillar, p.created_at, p.updated_at + interval '1 minute'
      from (select id, title, status, pillar, created_at, updated_at, row_number() over (order by id) g from post_drafts where user_id = ${u}) p
      where p.g <= ${COUNTS.tweet}`);
    await d.db.execute(sql`insert into ideas (user_id, title, body, status, pillar, created_at, updated_at)
      select ${u}, ${title}, ${text(1, 2)}, (array['new', 'new', 'used', 'archived'])[1 + g % 4], ${pillar}, x.updated, x.updated
      from generate_series(1, ${COUNTS.idea}) g, lateral (select ${updated} as updated) x`);
    await d.db.execute(sql`insert into articles (user_id, title, body, status, created_at, updated_at)
      select ${u}, ${title}, ${text(15, 16)}, (array['draft', 'published'])[1 + g % 2], x.updated, x.updated
      from generate_series(1, ${COUNTS.article}) g, lateral (select ${updated} as updated) x`);
    await d.db.execute(sql`insert into series (user_id, title, description, created_at, updated_at)
      select ${u}, ${title}, ${text(1, 2)}, x.updated, x.updated
      from generate_series(1, ${COUNTS.series}) g, lateral (select ${updated} as updated) x`);
    // PostgreSQL's autovacuum would soon do this; PGlite has none, and the server gathers
    // statistics itself at start and as tables grow (lib/adapters/db/statistics.ts), so the bench
    // leaves it to it.
    if (d.kind === "postgres") await d.db.execute(sql`vacuum analyze`);
    const one = rowsOf<{ id: string }>(await d.db.execute(sql`select id from post_drafts where user_id = ${u} order by updated_at desc limit 1`));
    const matches: Record<string, number> = {};
    for (const q of queries) {
      const counts = TABLES.map((t) => sql`select count(*)::int as n from ${sql.identifier(t)} where search @@ websearch_to_tsquery('english', ${q})`);
      const rows = rowsOf<{ n: number }>(await d.db.execute(sql.join(counts, sql` union all `)));
      matches[q] = rows.reduce((a, r) => a + Number(r.n), 0);
    }
    return { postId: one[0].id, matches };
  } finally {
    await d.close();
  }
}
