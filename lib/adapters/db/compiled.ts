import { is, Placeholder, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

const dialect = new PgDialect();

/** A statement's text around its parameters; each parameter a placeholder's name or a constant. */
export type Compiled = { text: string[]; params: Array<{ name: string } | { value: unknown }> };

/**
 * `query`, written with `sql.placeholder()` for what changes between calls, built into text
 * once. drizzle builds a query from its parts on every call; for a large statement (search's
 * union of five tables) that walk costs several times what binding the built text to new
 * values does (docs/performance.md, "Search").
 */
export function compile(query: SQL): Compiled {
  const built = dialect.sqlToQuery(query);
  const text = built.sql.split(/\$\d+/);
  if (text.length !== built.params.length + 1) throw new Error("compile: the statement's text holds a $ of its own");
  return { text, params: built.params.map((p) => (is(p, Placeholder) ? { name: p.name } : { value: p })) };
}

/** The compiled statement with `values` in its placeholders' places, to run with `db.execute`. */
export function bind(c: Compiled, values: Record<string, unknown>): SQL {
  const chunks: SQL[] = [sql.raw(c.text[0])];
  c.params.forEach((p, i) => {
    if ("name" in p && !(p.name in values)) throw new Error(`bind: no value for ${p.name}`);
    chunks.push(sql`${"name" in p ? values[p.name] : p.value}`, sql.raw(c.text[i + 1]));
  });
  return sql.join(chunks);
}
