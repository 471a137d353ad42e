import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { checkConnections } from "@/lib/adapters/platforms/check";
import { AppError } from "@/lib/core/errors";
import { authAccounts, publishingAccounts } from "@/drizzle/schema";
import { connectWithPassword } from "@/lib/domain/accounts/password";
import { syncSandboxAccounts } from "@/lib/domain/accounts/sandbox";
import { getProfileContextOp } from "@/lib/operations/owner/get-profile-context";
import { call, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withBluesky, type BlueskyAccount } from "../helpers/bluesky";
import { ensureBuild } from "../helpers/build";
import { withDatabase } from "../helpers/db";
import { asOwner } from "../helpers/owner";
import { tempDatabase } from "../helpers/temp-database";

// Connecting a Bluesky account with its handle and an app password, against a real PDS and PLC
// directory: handle -> DID -> PDS, createSession, the session's tokens stored (never the
// password), renewed with refreshSession one at a time, and refused when the app password is
// revoked.

withDatabase();
const bluesky = withBluesky();

const connect = async (u: TestUser, handle: string, password: string) =>
  connectWithPassword(await db(), u.id, ports().platforms, { network: "bluesky", handle, password });
const connection = async (did: string) =>
  (
    await (
      await db()
    )
      .select()
      .from(authAccounts)
      .where(and(eq(authAccounts.provider, "bluesky"), eq(authAccounts.providerAccountId, did)))
  )[0];

/** What connecting refused with (an AppError), or a failure when it did not refuse. */
async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("connecting Bluesky with an app password", () => {
  it("stores the session's tokens and the account's PDS, never the password; the account is a microblog account of the owner", async () => {
    const u = await makeUser();
    const a = await bluesky.net.account("alice");
    const account = await connect(u, `@${a.handle.toUpperCase()}`, a.appPassword);
    expect(account).toMatchObject({ platform: "micro", network: "bluesky", kind: "person", handle: `@${a.handle}`, default: true, state: "connected" });
    const row = await connection(a.did);
    expect(row).toMatchObject({ userId: u.id, type: "app_password", handle: `@${a.handle}`, serviceUrl: bluesky.net.pdsUrl, status: "connected", scope: null });
    expect(row.access_token).toMatch(/^ey/);
    expect(row.refresh_token).toMatch(/^ey/);
    expect(row.expires_at! * 1000).toBeGreaterThan(Date.now());
    expect(JSON.stringify(row)).not.toContain(a.appPassword);
    const p = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
    expect(p.accounts).toEqual([expect.objectContaining({ account_id: account.account_id, platform: "micro", network: "bluesky", handle: `@${a.handle}` })]);
    expect(p.connected_accounts[1]).toEqual({ platform: "micro", handle: `@${a.handle}`, connected: true, ready_to_publish: true });
    // Connecting again renews the same connection and account.
    expect((await connect(u, a.handle, a.appPassword)).account_id).toBe(account.account_id);
    expect(await (await db()).select().from(publishingAccounts).where(eq(publishingAccounts.userId, u.id))).toHaveLength(1);
    // A new session (its refresh token names a session of its own; two access tokens made in
    // the same second can read the same).
    expect((await connection(a.did)).refresh_token).not.toBe(row.refresh_token);
  });

  it("refuses the account's own password (and ends the session it made), a wrong password and an unknown handle, storing nothing", async () => {
    const u = await makeUser();
    const a = await bluesky.net.account("bob");
    const own = await refusal(connect(u, a.handle, a.password));
    expect(own.code).toBe("invalid_request");
    expect(own.details).toEqual([{ path: "password", message: expect.stringMatching(/^That is the account's own password\. Create an app password/) }]);
    const wrong = await refusal(connect(u, a.handle, "not-the-password"));
    expect(wrong).toMatchObject({ code: "action_failed", message: "Bluesky refused the handle or the app password (AuthenticationRequired)." });
    const unknown = await refusal(connect(u, "nobody-here.test", a.appPassword));
    expect(unknown).toMatchObject({ code: "action_failed", message: "No Bluesky account answers to @nobody-here.test." });
    expect((await refusal(connect(u, "not a handle", a.appPassword))).details).toEqual([{ path: "handle", message: expect.any(String) }]);
    expect((await refusal(connect(u, a.handle, ""))).details).toEqual([{ path: "password", message: expect.any(String) }]);
    expect(await connection(a.did)).toBeUndefined();
    expect(await (await db()).select().from(publishingAccounts).where(eq(publishingAccounts.userId, u.id))).toEqual([]);
  });

  it("counts an owner's attempts: past 10 in 15 minutes even the right password is refused before the PDS is asked", async () => {
    const u = await makeUser();
    const a = await bluesky.net.account("quinn");
    for (let i = 0; i < 10; i++) expect((await refusal(connect(u, a.handle, "not-the-password"))).code).toBe("action_failed");
    const held = await refusal(connect(u, a.handle, a.appPassword));
    expect(held.code).toBe("rate_limited");
    expect(held.message).toMatch(/^Too many attempts to connect an account: 10 in 15 minutes\. Nothing was sent to Bluesky\.$/);
    expect(await connection(a.did)).toBeUndefined();
    // Another owner's attempts are their own; a success gives its attempt back.
    const other = await makeUser();
    for (let i = 0; i < 12; i++) expect(await connect(other, a.handle, a.appPassword)).toMatchObject({ network: "bluesky", state: "connected" });
  });

  it("an account connected by one owner is refused to another, whose attempt changes nothing", async () => {
    const first = await makeUser();
    const second = await makeUser();
    const a = await bluesky.net.account("carol");
    await connect(first, a.handle, a.appPassword);
    const before = await connection(a.did);
    const taken = await refusal(connect(second, a.handle, a.appPassword));
    expect(taken).toMatchObject({ code: "action_failed", message: "This Bluesky account is connected to another user of this service." });
    expect(await connection(a.did)).toEqual(before);
  });
});

describe("a Bluesky session", () => {
  /** A connected account whose calls go through a proxy that counts them, with its access token expired. */
  async function expiredConnection(name: string): Promise<{ u: TestUser; a: BlueskyAccount; calls: string[]; close: () => Promise<void> }> {
    const u = await makeUser();
    const a = await bluesky.net.account(name);
    await connect(u, a.handle, a.appPassword);
    const proxy = await bluesky.net.proxy();
    await (
      await db()
    )
      .update(authAccounts)
      .set({ serviceUrl: proxy.url, expires_at: Math.floor(Date.now() / 1000) - 10 })
      .where(eq(authAccounts.providerAccountId, a.did));
    return { u, a, calls: proxy.calls, close: proxy.close };
  }

  it("is renewed by refreshSession once, however many calls need it at the same time", async () => {
    const { u, a, calls, close } = await expiredConnection("dave");
    try {
      const before = await connection(a.did);
      const checks = await Promise.all([checkConnections(await db(), u.id), checkConnections(await db(), u.id), checkConnections(await db(), u.id)]);
      for (const [c] of checks)
        expect(c).toMatchObject({ network: "Bluesky", reachable: true, detail: `GET com.atproto.server.getSession answered as @${a.handle}` });
      expect(calls.filter((n) => n === "com.atproto.server.refreshSession")).toHaveLength(1);
      const after = await connection(a.did);
      expect(after.refresh_token).not.toBe(before.refresh_token);
      expect(after.expires_at! * 1000).toBeGreaterThan(Date.now());
      expect(after.refreshLockedUntil).toBeNull();
    } finally {
      await close();
    }
  });

  it("whose access token the PDS refuses before it says it expires is renewed, and the call made again", async () => {
    const { u, a, calls, close } = await expiredConnection("gina");
    try {
      await (
        await db()
      )
        .update(authAccounts)
        .set({
          access_token: "eyJhbGciOiJIUzI1NiJ9.eyJzY29wZSI6ImNvbS5hdHByb3RvLmFwcFBhc3MifQ.bm90LXNpZ25lZA",
          expires_at: Math.floor(Date.now() / 1000) + 3600,
        })
        .where(eq(authAccounts.providerAccountId, a.did));
      const [c] = await checkConnections(await db(), u.id);
      expect(c).toMatchObject({ reachable: true, detail: `GET com.atproto.server.getSession answered as @${a.handle}` });
      expect(calls).toEqual(["com.atproto.server.getSession", "com.atproto.server.refreshSession", "com.atproto.server.getSession"]);
    } finally {
      await close();
    }
  });

  it("whose app password the owner revoked on Bluesky cannot be renewed: the connection needs reconnecting", async () => {
    const { u, a, close } = await expiredConnection("erin");
    try {
      await a.agent.com.atproto.server.revokeAppPassword({ name: "Contentio" });
      const [c] = await checkConnections(await db(), u.id);
      expect(c.reachable).toBe(false);
      expect(c.detail).toMatch(/^Bluesky refused to renew the session \(\w+/);
      expect((await connection(a.did)).status).toBe("needs_reconnect");
      const p = expectOk(await call("get_profile_context", {}, { token: u.token }), getProfileContextOp.output);
      expect(p.accounts[0]).toMatchObject({ network: "bluesky", state: "needs_reconnect" });
    } finally {
      await close();
    }
  });
});

describe("npm run admin -- connect-bluesky", () => {
  const ROOT = path.resolve(import.meta.dirname, "../..");
  // What `npm run admin` runs: the build's bundle (built first if a source is newer).
  beforeAll(() => ensureBuild(), 600_000);
  const run = (env: NodeJS.ProcessEnv, input: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [path.join(ROOT, "server", "admin.mjs"), ...args], { cwd: ROOT, env, timeout: 90_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
      );
      child.stdin!.end(input);
    });

  it("connected beside the sandbox's stand-in for X, it becomes the default microblog account", async () => {
    const u = await makeUser();
    await syncSandboxAccounts(await db(), u.id, (platform) => platform === "micro");
    const defaults = async () =>
      (await (await db()).select().from(publishingAccounts).where(eq(publishingAccounts.userId, u.id)))
        .filter((p) => p.platform === "micro")
        .map((p) => [p.provider, p.isDefault]);
    expect(await defaults()).toEqual([["sandbox", true]]);
    const a = await bluesky.net.account("frank");
    expect(await connect(u, a.handle, a.appPassword)).toMatchObject({ network: "bluesky", default: true });
    expect((await defaults()).sort()).toEqual([
      ["bluesky", true],
      ["sandbox", false],
    ]);
  });

  it("disconnected in Settings, its session is ended on the PDS too: the stored tokens no longer work there", async () => {
    const u = await makeUser();
    const a = await bluesky.net.account("erin");
    const account = await connect(u, a.handle, a.appPassword);
    const before = await connection(a.did);
    const refresh = () =>
      fetch(`${bluesky.net.pdsUrl}/xrpc/com.atproto.server.refreshSession`, { method: "POST", headers: { authorization: `Bearer ${before.refresh_token}` } });
    expect(await asOwner(u, "change_account", { account_id: account.account_id, action: "disconnect" })).toMatchObject({
      status: 200,
      body: { changed: true },
    });
    expect(await connection(a.did)).toBeUndefined();
    expect((await refresh()).status).toBe(400); // ExpiredToken: the session is gone
  });

  it("connects the owner's account with the app password read from standard input", { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-cli-"));
    const temp = process.env.DATABASE_URL ? await tempDatabase(process.env.DATABASE_URL, "contentio_cli") : undefined;
    const env: NodeJS.ProcessEnv = { ...process.env, ...bluesky.net.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
    delete env.REDIS_URL;
    if (temp) env.DATABASE_URL = temp.url;
    else delete env.DATABASE_URL;
    try {
      const email = `cli-${path.basename(dataDir).slice(-6).toLowerCase()}@example.test`;
      expect((await run(env, "pw-123456\n", "create-user", "--email", email, "--password-stdin")).code).toBe(0);
      const a = await bluesky.net.account("frank");
      const own = await run(env, `${a.password}\n`, "connect-bluesky", "--email", email, "--handle", a.handle, "--password-stdin");
      expect(own.code).toBe(1);
      expect(own.stderr).toMatch(/^That is the account's own password/);
      const done = await run(env, `${a.appPassword}\n`, "connect-bluesky", "--email", email, "--handle", a.handle, "--password-stdin");
      expect(done.code, done.stderr).toBe(0);
      expect(JSON.parse(done.stdout)).toEqual({ account: expect.objectContaining({ network: "bluesky", handle: `@${a.handle}`, state: "connected" }) });
      expect(done.stdout + done.stderr).not.toContain(a.appPassword);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await temp?.drop();
    }
  });
});
