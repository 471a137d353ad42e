import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/adapters/db";
import { migratedTemplate } from "../helpers/pglite-template";
import { withInstalledParsers } from "@/lib/adapters/db/pglite-client";

// The embedded database runs plain SELECTs as named prepared statements (lib/adapters/db/pglite-statements.ts).
// Whatever comes back, values or errors, must be what PGlite's own query path gives.
describe("prepared SELECTs on the embedded database", () => {
  let ours: Database;
  let reference: PGlite;
  const client = () => (ours.db as unknown as { $client: PGlite }).$client;
  beforeAll(async () => {
    ours = await openDatabase({ dataDir: null, from: await migratedTemplate() });
    reference = withInstalledParsers(await PGlite.create());
  });
  afterAll(async () => {
    await ours?.close();
    await reference?.close();
  });

  it("bind every kind of parameter exactly as PGlite's own queries do, run after run", async () => {
    const sql = `select $1::text as t, $2::int4 as i, $3::numeric as n, $4::bool as b, $5::jsonb as j, $6::int4[] as a,
      $7::timestamptz as at, $8::text as nothing, $9::uuid as u, $10::text[] as words`;
    const params = [
      "it's \u00e9t\u00e9 \u{1F600}",
      42,
      "12.50",
      true,
      { a: [1, "b"], c: null },
      [1, 2, 3],
      new Date("2026-03-04T05:06:07.891Z"),
      null,
      "8c1f0b6e-5b5e-4c55-9d3e-2a4f4b0f6a11",
      ["x", "y,z", null],
    ];
    const expected = await reference.query(sql, params);
    for (let run = 0; run < 3; run++) expect(await client().query(sql, params)).toEqual(expected);
    const arrays = await client().query(sql, params, { rowMode: "array" });
    expect(arrays).toEqual(await reference.query(sql, params, { rowMode: "array" }));
  });

  it("answer an error as PGlite does, and keep answering afterwards", async () => {
    const sql = "select id from users where id = $1";
    const failure = (db: PGlite) =>
      db.query(sql, ["not-a-uuid"]).then(
        () => null,
        (e: { code?: string; message: string }) => ({ code: e.code, message: e.message }),
      );
    await reference.exec("create table users (id uuid primary key)");
    expect(await failure(client())).toEqual(await failure(reference));
    expect(await failure(client())).toMatchObject({ code: "22P02" });
    expect((await client().query(sql, ["8c1f0b6e-5b5e-4c55-9d3e-2a4f4b0f6a11"])).rows).toEqual([]);
    await expect(client().query("select nonsense from nowhere")).rejects.toMatchObject({ code: "42P01" });
    expect((await client().query<{ x: number }>("select 1 as x")).rows).toEqual([{ x: 1 }]);
  });

  it("stay right past the number of statements kept", async () => {
    const distinct = (i: number) => client().query<{ n: number }>(`select $1::int4 + ${i} as n`, [1]);
    for (let i = 0; i < 250; i++) expect((await distinct(i)).rows[0].n).toBe(i + 1);
    for (let i = 0; i < 5; i++) expect((await distinct(i)).rows[0].n).toBe(i + 1);
  });

  it("follow a table whose shape changed after a statement was prepared", async () => {
    await client().exec("create table shape_change (a int); insert into shape_change values (1)");
    expect((await client().query("select * from shape_change")).rows).toEqual([{ a: 1 }]);
    await client().exec("alter table shape_change add column b text default 'x'");
    expect((await client().query("select * from shape_change")).rows).toEqual([{ a: 1, b: "x" }]);
  });

  it("are planned for their actual values every time, as unnamed statements were", async () => {
    // A plan made once for any value would serve a search for a common word like a rare one.
    expect((await client().query<{ plan_cache_mode: string }>("show plan_cache_mode")).rows).toEqual([{ plan_cache_mode: "force_custom_plan" }]);
  });

  it("leave transactions and writes to PGlite's own path", async () => {
    const inTx = await client().transaction(async (tx) => {
      await tx.query("create table in_tx (a int)");
      await tx.query("insert into in_tx values ($1)", [7]);
      return tx.query<{ a: number }>("select a from in_tx");
    });
    expect(inTx.rows).toEqual([{ a: 7 }]);
    expect((await client().query("update in_tx set a = $1 returning a", [8])).rows).toEqual([{ a: 8 }]);
    expect((await client().query<{ a: number }>("select a from in_tx")).rows).toEqual([{ a: 8 }]);
  });
});
