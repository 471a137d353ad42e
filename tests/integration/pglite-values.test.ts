import { PGlite, types } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/adapters/db";
import { migratedTemplate } from "../helpers/pglite-template";
import { rowsOf } from "@/lib/adapters/db/rows";

// The embedded database installs drizzle's type parsers once at open instead of receiving
// them with every query (lib/adapters/db/pglite-client.ts). Whatever drizzle reads must be exactly
// what drizzle's own driver reads from an untouched PGlite, in and out of transactions.
const VALUES = sql`select
  '2026-03-04 05:06:07.891+00'::timestamptz as tstz,
  '2026-03-04 05:06:07'::timestamp as ts,
  '2026-03-04'::date as d,
  '1 day 02:03:04'::interval as i,
  array['2026-03-04 05:06:07+00'::timestamptz, null] as tstz_a,
  array['2026-03-04 05:06:07'::timestamp] as ts_a,
  array['2026-03-04'::date] as d_a,
  array['1 hour'::interval] as i_a,
  array[1.50, 2]::numeric[] as n_a,
  12.50::numeric as n,
  '{"a": [1, "b"]}'::jsonb as j,
  array[1, 2]::int4[] as int_a,
  array['x', null]::text[] as text_a,
  true as b,
  42::int8 as big`;

describe("the embedded database's values through drizzle", () => {
  let ours: Database;
  let reference: PGlite;
  beforeAll(async () => {
    ours = await openDatabase({ dataDir: null, from: await migratedTemplate() });
    reference = await PGlite.create();
  });
  afterAll(async () => {
    await ours?.close();
    await reference?.close();
  });

  it("are the ones drizzle's own driver reads, outside and inside a transaction", async () => {
    const plain = drizzle(reference);
    const expected = (await plain.execute(VALUES)).rows;
    expect(expected[0]).toMatchObject({ tstz: "2026-03-04 05:06:07.891+00", d: "2026-03-04", i: "1 day 02:03:04" });

    expect(rowsOf(await ours.db.execute(VALUES))).toEqual(expected);
    expect(await ours.db.transaction(async (tx) => rowsOf(await tx.execute(VALUES)))).toEqual(expected);
    expect(await ours.db.transaction((tx) => tx.transaction(async (inner) => rowsOf(await inner.execute(VALUES))))).toEqual(expected);
  });

  it("reads a timestamp back to the millisecond, in and out of a transaction", async () => {
    const at = new Date("2026-05-06T07:08:09.123Z");
    const query = sql`select ${at.toISOString()}::timestamptz as at`;
    const rows = rowsOf<{ at: string }>(await ours.db.execute(query));
    const inTx = await ours.db.transaction(async (tx) => rowsOf(await tx.execute(query)));
    expect(new Date(rows[0].at).getTime()).toBe(at.getTime());
    expect(inTx).toEqual(rows);
  });

  it("still applies parsers a query brings beyond those installed", async () => {
    const client = (ours.db as unknown as { $client: PGlite }).$client;
    const seven = () => "seven";
    const withOwn = await client.query<{ x: string }>("select 1::int4 as x", [], { parsers: { [types.INT4]: seven } });
    expect(withOwn.rows[0].x).toBe("seven");
    const inTx = await client.transaction((tx) => tx.query<{ x: string }>("select 1::int4 as x", [], { parsers: { [types.INT4]: seven } }));
    expect(inTx.rows[0].x).toBe("seven");
    expect((await client.query<{ x: number }>("select 1::int4 as x")).rows[0].x).toBe(1);
  });
});
