import type { PGlite } from "@electric-sql/pglite";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { createUser, issueCommandLineToken } from "@/lib/domain/accounts";
import { authenticate, hashToken, revokeApp } from "@/lib/domain/tokens";
import { tokens, users } from "@/drizzle/schema";

// On the embedded database a token check's rows are reused while no write has happened
// (lib/db/data-version.ts). Whatever way the data changes, the very next check must see it.
// These run on an embedded database of their own whatever the suite's database is.
const AUD = "http://127.0.0.1/api/v1";

describe("token checks on the embedded database", () => {
  let d: Database;
  let queries = 0;
  const client = () => (d.db as unknown as { $client: PGlite }).$client;
  beforeAll(async () => {
    d = await openDatabase({ dataDir: null });
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
