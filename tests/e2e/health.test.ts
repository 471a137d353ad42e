import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../helpers/build";
import { TestServer } from "./harness";

// What an orchestrator sees: /healthz while the process lives, /readyz once it can serve
// (database reached, migrations applied, scheduler running or deliberately off), and a start
// that cannot bring the schema up to date ends instead of serving it.

beforeAll(() => ensureBuild(), 600_000);

const servers: TestServer[] = [];
async function server(env: Record<string, string> = {}, from?: TestServer): Promise<TestServer> {
  const s = new TestServer();
  servers.push(s);
  await s.setup();
  // Another instance of the same deployment: the same PostgreSQL database.
  if (from?.env.DATABASE_URL) s.env.DATABASE_URL = from.env.DATABASE_URL;
  Object.assign(s.env, env);
  return s;
}
afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.teardown();
});
afterAll(async () => {
  for (const s of servers) await s.teardown();
});

const get = (s: TestServer, p: string, init?: RequestInit) => fetch(`${s.origin}${p}`, init);

describe("health", { timeout: 60_000 }, () => {
  it("answers alive and ready without authentication, revealing only the checks", async () => {
    const s = await server();
    await s.start();
    const alive = await get(s, "/healthz");
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: "ok" });
    expect(alive.headers.get("cache-control")).toBe("no-store");
    await expect
      .poll(async () => {
        const r = await get(s, "/readyz");
        return { status: r.status, body: await r.json(), cookie: r.headers.get("set-cookie") };
      })
      .toEqual({ status: 200, body: { status: "ready", checks: { database: "ok", migrations: "applied", scheduler: "running" } }, cookie: null });
    expect((await get(s, "/readyz", { method: "POST" })).status).toBe(405);
  });

  it("is ready with the scheduler deliberately off", async () => {
    const s = await server({ SCHEDULER: "off" });
    await s.start();
    const r = await get(s, "/readyz");
    expect(await r.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "applied", scheduler: "off" } });
  });

  it.skipIf(!process.env.DATABASE_URL)("two instances started at the same instant on an empty database both become ready", async () => {
    const a = await server();
    const b = await server({}, a);
    await Promise.all([a.start(), b.start()]);
    for (const s of [a, b]) await expect.poll(async () => (await get(s, "/readyz")).status).toBe(200);
    expect(a.output + b.output).not.toMatch(/migrations failed|database not ready/);
  });

  it("a start whose migrations fail stops with a clear message instead of serving", async () => {
    const s = await server();
    if (s.env.DATABASE_URL) {
      // Something already holds a name the first migration creates.
      const sql = postgres(s.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      await sql`create table users (x int)`;
      await sql.end();
    } else {
      // The record of the last migration is lost: applying it again fails.
      const { PGlite } = await import("@electric-sql/pglite");
      const pg = await PGlite.create(s.env.DATA_DIR!);
      await pg.exec("delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)");
      await pg.close();
    }
    await expect(s.start()).rejects.toThrow(/server did not start/);
    expect(s.exitCode).toBe(1);
    expect(s.output).toMatch(/"msg":"stopping: the database migrations failed".*already exists/);
  });
});
