import type { PGlite } from "@electric-sql/pglite";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/adapters/db";
import { createUser, issueCommandLineToken } from "@/lib/domain/owner/users";
import { authenticate, hashToken, revokeApp } from "@/lib/domain/apps/tokens";
import { tokens, users } from "@/drizzle/schema";
import postgres from "postgres";
import { migratedTemplate } from "../helpers/pglite-template";
import { tempDatabase, type TempDatabase } from "../helpers/temp-database";

// On the embedded database a token check's rows are reused while no write has happened
// (lib/adapters/db/data-version.ts). Whatever way the data changes, the very next check must see it.
// These run on an embedded database of their own whatever the suite's database is.
const AUD = "http://127.0.0.1/api/v1";

describe("token checks on the embedded database", () => {
  let d: Database;
  let queries = 0;
  const client = () => (d.db as unknown as { $client: PGlite }).$client;
  beforeAll(async () => {
    d = await openDatabase({ dataDir: null, from: await migratedTemplate() });
    const query = client().query;
    client().query = (...args) => {
      queries++;
      return query(...args);
    };
  });
  afterAll(() => d?.close());

  async function user(opts: { expiresIn?: number } = {}) {
    const email = `u${randomBytes(6).toString("hex")}@example.test`;
    const u = await createUser(d.db, { email, password: "correct horse battery staple", plan: "creator", complete: true });
    const t = await issueCommandLineToken(d.db, { email, audience: [AUD], expiresIn: opts.expiresIn });
    const ok = async (now?: Date) => {
      const r = await authenticate(d.db, t.access_token, AUD, now);
      return r.ok ? r.caller : r.reason;
    };
    // The first check also records when the app was last used (a write); after it, checks
    // are answered from the kept row: no statement reaches the database.
    await ok();
    await new Promise((r) => setTimeout(r, 20));
    await ok();
    const before = queries;
    expect(await ok()).toMatchObject({ userId: u.id });
    expect(queries).toBe(before);
    return { id: u.id, appId: t.app_id, token: t.access_token, ok };
  }

  it("stops a token revoked by any statement, including raw SQL and several statements at once", async () => {
    const a = await user();
    await client().query("update tokens set revoked_at = now() where token_hash = $1", [hashToken(a.token)]);
    expect(await a.ok()).toBe("revoked");

    const b = await user();

    await client().exec(`select 1; update connected_apps set revoked_at = now() where id = '${b.appId}'`);
    expect(await b.ok()).toBe("revoked");
  });

  it("stops every token of a disconnected app on the next call", async () => {
    const a = await user();
    await revokeApp(d.db, a.id, a.appId);
    expect(await a.ok()).toBe("revoked");
  });

  it("sees a change to the user made inside a transaction, and a deleted token", async () => {
    const a = await user();
    expect(await a.ok()).toMatchObject({ publishingAllowed: false, plan: "creator" });
    await d.db.transaction(async (tx) => {
      await tx.update(users).set({ publishingAllowed: true, plan: "plus" }).where(eq(users.id, a.id));
    });
    expect(await a.ok()).toMatchObject({ publishingAllowed: true, plan: "plus" });
    await d.db.delete(tokens).where(eq(tokens.tokenHash, hashToken(a.token)));
    expect(await a.ok()).toBe("invalid");
  });

  it("refuses a write that lands while the check is still running", async () => {
    const a = await user();
    await client().query("update users set timezone = 'Europe/Paris' where id = $1", [a.id]); // the next check queries again
    const during = a.ok(); // its query waits behind nothing, the revocation right behind it
    const revoked = d.db
      .update(tokens)
      .set({ revokedAt: new Date() })
      .where(eq(tokens.tokenHash, hashToken(a.token)));
    await Promise.all([during, revoked]);
    expect(await a.ok()).toBe("revoked");
  });

  it("expires a token by the clock, with no write in between", async () => {
    const a = await user({ expiresIn: 60 });
    const now = Date.now();
    expect(await a.ok(new Date(now))).toMatchObject({ userId: a.id });
    expect(await a.ok(new Date(now + 61_000))).toBe("expired");
  });

  it("still checks the audience on every call", async () => {
    const a = await user();
    expect(await authenticate(d.db, a.token, "http://127.0.0.1/mcp")).toEqual({ ok: false, reason: "audience" });
  });
});

// On PostgreSQL other processes write too (another server, the admin CLI, psql): a token's
// row is reused only while the authentication epoch it was read with stands (migration 0009,
// lib/adapters/db/auth-epoch.ts). Every change below is made on a connection of its own, as another
// process would make it.
describe.skipIf(!process.env.DATABASE_URL)("token checks on PostgreSQL", () => {
  let temp: TempDatabase;
  let d: Database;
  let other: postgres.Sql;
  beforeAll(async () => {
    temp = await tempDatabase(process.env.DATABASE_URL!);
    d = await openDatabase({ url: temp.url });
    other = postgres(temp.url, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await other?.end({ timeout: 5 });
    await d?.close();
    await temp?.drop();
  });

  async function user() {
    const email = `u${randomBytes(6).toString("hex")}@example.test`;
    const u = await createUser(d.db, { email, password: "correct horse battery staple", plan: "creator", complete: true });
    const t = await issueCommandLineToken(d.db, { email, audience: [AUD] });
    const ok = async () => {
      const r = await authenticate(d.db, t.access_token, AUD);
      return r.ok ? r.caller : r.reason;
    };
    expect(await ok()).toMatchObject({ userId: u.id }); // read, kept, and last_used_at written
    expect(await ok()).toMatchObject({ userId: u.id });
    return { id: u.id, appId: t.app_id, hash: hashToken(t.access_token), ok };
  }
  const epoch = async () => (await other`select n from auth_epoch`)[0].n as string;

  it("reuses a kept row: a change made with the epoch's trigger switched off goes unseen", async () => {
    // Not a way anyone may write: it shows the kept row is what answers, and that the trigger is what keeps it exact.
    const a = await user();
    await other.begin(async (tx) => {
      await tx`alter table users disable trigger users_auth_epoch`;
      await tx`update users set publishing_allowed = true where id = ${a.id}`;
      await tx`alter table users enable trigger users_auth_epoch`;
    });
    expect(await a.ok()).toMatchObject({ publishingAllowed: false });
    await other`update users set timezone = 'Europe/Paris' where id = ${a.id}`;
    expect(await a.ok()).toMatchObject({ publishingAllowed: true, timezone: "Europe/Paris" });
  });

  it("stops a token revoked, deleted or disconnected by another connection on the very next call", async () => {
    const a = await user();
    await other`update tokens set revoked_at = now() where token_hash = ${a.hash}`;
    expect(await a.ok()).toBe("revoked");
    const b = await user();
    await other`update connected_apps set revoked_at = now() where id = ${b.appId}`;
    expect(await b.ok()).toBe("revoked");
    const c = await user();
    await other`delete from tokens where token_hash = ${c.hash}`;
    expect(await c.ok()).toBe("invalid");
    const e = await user();
    await other`delete from users where id = ${e.id}`;
    expect(await e.ok()).toBe("invalid");
  });

  it("sees the user's publishing switch, plan and the client's name as soon as they change", async () => {
    const a = await user();
    await other`update users set publishing_allowed = true, plan = 'plus' where id = ${a.id}`;
    expect(await a.ok()).toMatchObject({ publishingAllowed: true, plan: "plus" });
    await other`update oauth_clients set name = 'Renamed' where id = (select client_id from connected_apps where id = ${a.appId})`;
    expect(await a.ok()).toMatchObject({ appName: "Renamed" });
  });

  it("never takes the epoch of a database put back to an earlier state for one it kept a row with", async () => {
    // A restore from backup, or a failover to a replica that missed the last commits: the
    // data and the epoch go back to what they were, and the service goes on writing.
    const a = await user();
    const backedUp = await epoch();
    await other`update users set timezone = 'Europe/Paris' where id = ${a.id}`; // after the backup
    expect(await a.ok()).toMatchObject({ timezone: "Europe/Paris" }); // kept with the epoch after it
    await other.begin(async (tx) => {
      await tx`alter table users disable trigger users_auth_epoch`;
      await tx`update users set timezone = 'UTC' where id = ${a.id}`;
      await tx`alter table users enable trigger users_auth_epoch`;
      await tx`update auth_epoch set n = ${backedUp}`;
    });
    // On the restored database the token is revoked: the epoch changes once, as it did after the backup.
    await other`update tokens set revoked_at = now() where token_hash = ${a.hash}`;
    expect(await a.ok()).toBe("revoked");
  });

  it("answers every check that starts after a revocation's commit with revoked, under concurrent load", async () => {
    const a = await user();
    let committed = false;
    const afterCommit: unknown[] = [];
    let stop = false;
    // Checks keep starting while the revocation commits on the other connection.
    const load = Array.from({ length: 20 }, async () => {
      while (!stop) {
        const startedAfter = committed;
        const r = await a.ok();
        if (startedAfter) afterCommit.push(r);
        await new Promise((resolve) => setImmediate(resolve)); // a turn of the loop, as between requests
      }
    });
    await new Promise((r) => setTimeout(r, 50));
    await other`update tokens set revoked_at = now() where token_hash = ${a.hash}`;
    committed = true;
    // Enough checks after the commit, however busy the machine.
    for (const deadline = Date.now() + 10_000; afterCommit.length <= 20 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    await Promise.all(load);
    expect(afterCommit.length).toBeGreaterThan(20);
    expect(new Set(afterCommit)).toEqual(new Set(["revoked"]));
  });

  it("is not moved by the bookkeeping of last use, and is moved by every other column of a connected app", async () => {
    const a = await user();
    const before = await epoch();
    await other`update connected_apps set last_used_at = now() where id = ${a.appId}`;
    expect(await epoch()).toBe(before);
    // The trigger's column list: every column of connected_apps but last_used_at.
    const [{ columns }] = await other`
      select array_agg(a.attname::text order by a.attname) as columns
      from pg_trigger t join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = any(t.tgattr)
      where t.tgname = 'connected_apps_auth_epoch'`;
    const all = await other`select column_name::text as name from information_schema.columns
      where table_name = 'connected_apps' and column_name <> 'last_used_at' order by column_name`;
    expect(columns).toEqual(all.map((c) => c.name));
    // The other three tables' triggers fire on an update of any column.
    const anyColumn = await other`select tgname::text as name from pg_trigger
      where tgname in ('tokens_auth_epoch', 'users_auth_epoch', 'oauth_clients_auth_epoch') and tgattr = ''::int2vector order by 1`;
    expect(anyColumn.map((t) => t.name)).toEqual(["oauth_clients_auth_epoch", "tokens_auth_epoch", "users_auth_epoch"]);
  });
});
