import { randomBytes } from "node:crypto";
import { CredentialsSignin, EventError } from "@auth/core/errors";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { authLogger } from "@/lib/transports/auth/log";
import { logRequestError, routeConsoleThroughLog } from "@/lib/core/console";
import { db } from "@/lib/adapters/db";
import { ports } from "@/lib/adapters/ports";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { ownerContext } from "@/lib/domain/owner/owner";
import { storePlatformTokens } from "@/lib/domain/owner/sign-in";
import { manageWebhooks } from "@/lib/domain/webhooks/endpoints";
import { authAccounts } from "@/drizzle/schema";
import { makeUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";

// drizzle's error for a failed query holds the query's parameters: a connection's platform
// tokens, a new webhook's secret. Whatever prints such an error (next-auth's logger, Next's
// print of a Server Action's error, the front server's console.error) writes one line of the
// log with the error's facts, never its text. (tests/e2e/log-secrets.test.ts: the built server.)

withDatabase();
withConfig({ LOG_LEVEL: "info" });

let written = "";
let restoreConsole: () => void = () => {};
beforeAll(() => {
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    written += String(chunk);
    return true;
  });
  restoreConsole = routeConsoleThroughLog();
});
afterAll(() => {
  restoreConsole();
  vi.restoreAllMocks();
});
beforeEach(() => {
  written = "";
});

/** Every write was one JSON line of the log. */
function logLines(): Record<string, unknown>[] {
  expect(written.endsWith("\n")).toBe(true);
  return written
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

// Every write of the table fails in the database, as a full disk or a lost primary would.
async function failing(table: string, op: "insert" | "update", run: () => Promise<unknown>): Promise<Error> {
  const d = await db();
  await d.execute(
    sql.raw(`create or replace function test_fail_write() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$`),
  );
  await d.execute(sql.raw(`create trigger test_fail_write before ${op} on ${table} for each row execute function test_fail_write()`));
  try {
    return await run().then(
      () => expect.unreachable("the write should have failed"),
      (e: Error) => e,
    );
  } finally {
    await d.execute(sql.raw(`drop trigger test_fail_write on ${table}`));
  }
}

describe("a database failure while storing a LinkedIn connection", () => {
  const access = `li-access-${randomBytes(6).toString("hex")}`;
  const refresh = `li-refresh-${randomBytes(6).toString("hex")}`;
  let error: Error;

  beforeAll(async () => {
    const u = await makeUser();
    await (await db()).insert(authAccounts).values({ userId: u.id, type: "oidc", provider: "linkedin", providerAccountId: `li-${u.id}` });
    const account = { provider: "linkedin", providerAccountId: `li-${u.id}`, type: "oidc", access_token: access, refresh_token: refresh };
    error = await failing("auth_accounts", "update", async () => storePlatformTokens(await db(), account, { name: "Lena" }));
    // The attack: the error's own text carries both tokens.
    expect(String(error.message) + String((error.cause as Error)?.message)).toContain(access);
  });
  afterEach(() => {
    expect(written).not.toContain(access);
    expect(written).not.toContain(refresh);
    expect(written).not.toMatch(/Failed query|params|auth_accounts/);
  });

  it("next-auth's report of it (an event's error) is one line: the sign-in failed, a database error", () => {
    // How next-auth reports a failed event handler (its types admit only a message).
    authLogger.error!(new EventError(error as never));
    expect(logLines()).toEqual([
      expect.objectContaining({ level: "error", msg: "sign-in failed", type: "EventError", error: "database error", code: "P0001" }),
    ]);
  });

  it("printed with console.error, as Next and the front server print, it is one line with the error's facts", () => {
    console.error(error);
    console.error(" ⨯", error);
    expect(logLines()).toEqual([
      expect.objectContaining({ level: "error", msg: "unexpected error", error: "database error" }),
      expect.objectContaining({ level: "error", msg: "unexpected error", error: "database error" }),
    ]);
  });
});

describe("a database failure while creating a webhook", () => {
  let error: Error;

  beforeAll(async () => {
    const u = await makeUser();
    const ctx = await ownerContext(await db(), { id: u.id, ...(await getProfile(await db(), u.id))! }, ports());
    error = await failing("webhook_endpoints", "insert", () =>
      manageWebhooks(ctx, { action: "create", url: "https://hooks.example.com/in", events: ["webhook.test"] } as never),
    );
    expect(String(error.message)).toMatch(/whsec_/);
  });
  afterEach(() => {
    expect(written).not.toMatch(/whsec_|Failed query|params|webhook_endpoints/);
  });

  it("Next's report of the Server Action's error is one line with its route, and Next's own print of it adds nothing", () => {
    logRequestError(error, { path: "/settings/webhooks?x=1", method: "POST" }, { routePath: "/settings/webhooks", routeType: "action" });
    console.error(error); // Next's print after the report (a Node server's own path)
    expect(logLines()).toEqual([
      expect.objectContaining({ msg: "request failed", method: "POST", path: "/settings/webhooks", route: "/settings/webhooks", error: "database error" }),
    ]);
  });

  it("printed first and reported after (Next's order for a page or an action), the report adds the route without repeating the facts", () => {
    const again = new Error(error.message, { cause: error.cause });
    console.error(again);
    logRequestError(again, { path: "/settings/webhooks", method: "POST" }, { routePath: "/settings/webhooks", routeType: "action" });
    const [printed, reported] = logLines();
    expect(printed).toMatchObject({ msg: "unexpected error", error: "database error" });
    expect(reported).toMatchObject({ msg: "request failed", route: "/settings/webhooks" });
    expect(reported.error).toBeUndefined();
  });
});

describe("next-auth's other reports", () => {
  it("a wrong password is one line, without a stack", () => {
    authLogger.error!(new CredentialsSignin());
    expect(logLines()).toEqual([expect.objectContaining({ level: "info", msg: "sign-in refused", type: "CredentialsSignin", code: "credentials" })]);
  });

  it("text printed to the console loses its credentials and colours", () => {
    console.warn("\u001b[33m⚠\u001b[0m token=abc123 for Bearer xyz.987");
    expect(logLines()).toEqual([expect.objectContaining({ level: "warn", msg: "token=[redacted] for Bearer [redacted]" })]);
  });
});
