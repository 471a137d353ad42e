import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { bind, compile } from "@/lib/adapters/db/compiled";
import { postDrafts } from "@/drizzle/schema";

const dialect = new PgDialect();
const built = (q: ReturnType<typeof sql>) => dialect.sqlToQuery(q);

describe("statements built once and bound to new values", () => {
  const statement = (v: (name: string) => unknown) =>
    sql`select ${postDrafts.id} from ${postDrafts} where ${postDrafts.userId} = ${v("user")} and ${postDrafts.status} in (${v("a")}, ${v("b")}, ${"draft"})
      and ${postDrafts.title} <> ${v("user")} limit ${v("n")}`;

  it("sends exactly the text and parameters drizzle builds from the values themselves", () => {
    const compiled = compile(statement((name) => sql.placeholder(name)));
    for (const values of [
      { user: "u-1", a: "scheduled", b: "failed", n: 5 },
      { user: "it's $1 'quoted'", a: null, b: "x", n: 0 },
    ]) {
      const direct = built(statement((name) => values[name as keyof typeof values]));
      expect(built(bind(compiled, values))).toEqual(direct);
    }
  });

  it("refuses a statement whose own text holds a $ and a value left out", () => {
    expect(() => compile(sql`select '$1' as x, ${sql.placeholder("a")}`)).toThrow(/\$/);
    const compiled = compile(statement((name) => sql.placeholder(name)));
    expect(() => bind(compiled, { user: "u", a: "x", b: "y" })).toThrow(/no value for n/);
  });
});
