import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/adapters/db";
import { startFakeOAuth, type FakeOAuth } from "../helpers/fake-oauth-providers";
import { appInBrowser, openSignedIn } from "./browser";
import { TestServer } from "./harness";

// What the built server writes to stdout and stderr when a sign-in is refused or a write
// fails in the database: one JSON line of the log each, never a credential, a query or a stack.
// drizzle's error for a failed write holds its parameters (a new webhook's secret, a
// connection's platform tokens); Next prints a Server Action's uncaught error and next-auth
// prints its own errors, each with the raw text, unless both go through the log.
const PG = !!process.env.DATABASE_URL;
const srv = new TestServer();
let li: FakeOAuth;
let ownerPassword = "";

const app = appInBrowser(srv, async () => {
  // A partner app, so that a refresh token is issued too and its absence from the output shows.
  li = await startFakeOAuth("linkedin", { sub: "li-member-Lena42", name: "Lena Linked", email: "lena@example.com" }, { linkedinPartner: true });
  // Sign-in counters in this server's memory (a shared Redis would keep other runs' counts).
  delete srv.env.REDIS_URL;
  Object.assign(srv.env, { LINKEDIN_CLIENT_ID: "li-app", LINKEDIN_CLIENT_SECRET: "li-secret", LINKEDIN_OAUTH_URL: li.url, LINKEDIN_API_URL: li.url });
  ({ ownerPassword } = await srv.firstStart());
  await srv.stop();
  // With the server stopped (PGlite admits one process): new webhooks and updates of stored
  // connections fail in the database, as on a full disk.
  const d = await openDatabase(PG ? { url: srv.env.DATABASE_URL } : { dataDir: srv.env.DATA_DIR });
  try {
    await d.db.execute(sql.raw(`create function test_fail_write() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$`));
    await d.db.execute(sql.raw(`create trigger test_fail_write before insert on webhook_endpoints for each row execute function test_fail_write()`));
    await d.db.execute(sql.raw(`create trigger test_fail_write before update on auth_accounts for each row execute function test_fail_write()`));
  } finally {
    await d.close();
  }
  return [li];
});

/** What the server writes while `act` runs, once `until` (what it writes then, right or wrong) shows in it. */
async function outputOf(act: () => Promise<unknown>, until: RegExp): Promise<string> {
  const from = srv.output.length;
  await act();
  await expect.poll(() => until.test(srv.output.slice(from)), { timeout: 20_000 }).toBe(true);
  await new Promise((r) => setTimeout(r, 500)); // anything printed right after it
  return srv.output.slice(from);
}

/** Each line written is a JSON object of the log. */
function logLines(out: string): Record<string, unknown>[] {
  return out
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      expect(l, "a line that is not the log's").toMatch(/^\{"time":/);
      return JSON.parse(l);
    });
}

const RAW = /Failed query|params:|\[auth\]|\bat .*\.js:\d+|insert into|update "/;

describe("the built server's output", () => {
  it("a wrong password is one line of the log, not next-auth's error and stack", async () => {
    const page = await app.newPage();
    const out = await outputOf(async () => {
      await page.goto(`${srv.origin}/signin`);
      await page.getByLabel("E-mail").first().fill("owner@example.com");
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect.poll(() => page.getByText("Wrong e-mail or password").count()).toBe(1);
    }, /sign-in refused|\[auth\]/);
    expect(out).not.toMatch(RAW);
    expect(logLines(out).filter((l) => l.msg === "sign-in refused")).toEqual([expect.objectContaining({ level: "info", type: "CredentialsSignin" })]);
    await page.close();
  }, 180_000);

  it("a database failure while adding a webhook logs the failed request, never its secret or query", async () => {
    const page = await openSignedIn(await app.newPage(), `${srv.origin}/settings/webhooks`, "owner@example.com", ownerPassword);
    const out = await outputOf(async () => {
      await page.getByLabel("URL", { exact: true }).fill("https://hooks.example.com/in");
      await page.getByRole("button", { name: "Add endpoint" }).click();
    }, /request failed|whsec_|Failed query/);
    expect(out).not.toMatch(/whsec_/);
    expect(out).not.toMatch(RAW);
    const failed = logLines(out).filter((l) => l.level === "error");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed).toContainEqual(expect.objectContaining({ msg: "request failed", route: "/settings/webhooks" }));
    for (const l of failed) if (l.error) expect(l.error).toBe("database error");
    // The server goes on answering.
    expect((await fetch(`${srv.origin}/api/v1`)).status).toBe(200);
    await page.close();
  }, 180_000);

  it("a database failure while storing a LinkedIn connection logs no platform token", async () => {
    const page = await app.newPage();
    const out = await outputOf(async () => {
      await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
      await page.getByRole("button", { name: "LinkedIn" }).click();
      await page.waitForURL(/\/onboarding|\/settings|\/signin/);
    }, /sign-in failed|\[auth\]/);
    const issued = li.issued.at(-1)!;
    expect(issued.access_token).toMatch(/^linkedin-access-/);
    for (const token of [issued.access_token, issued.refresh_token!]) expect(out).not.toContain(token);
    expect(out).not.toMatch(RAW);
    expect(logLines(out)).toContainEqual(expect.objectContaining({ level: "error", msg: "sign-in failed", type: "EventError", error: "database error" }));
    await page.close();
  }, 180_000);
});
