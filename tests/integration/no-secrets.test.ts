import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/adapters/db";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { runDue } from "@/lib/adapters/scheduler";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { withConfig } from "../helpers/env";
import { approved, draft, inSeconds, row } from "../helpers/publishing";

// No secrets in messages: failure reasons, fetch_item notes, API answers and log lines never
// carry a platform token (platforms may echo it in error bodies) or a raw database error.

withDatabase();

let logged = "";
withConfig({ LOG_LEVEL: "info", SCHEDULE_MIN_LEAD_SECONDS: "1" });
beforeAll(() => {
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    // The service's log lines are kept for the assertions; anything else passes through.
    if (String(chunk).startsWith('{"time"')) {
      logged += String(chunk);
      return true;
    }
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  });
});
afterAll(() => {
  vi.restoreAllMocks();
});

/** Everything a person or a log reader is told about this draft's publishing. */
async function everythingShown(u: TestUser, type: "post" | "tweet", id: string, answer: unknown) {
  const item = expectOk(await call("fetch_item", { type, id }, { token: u.token }), fetchItemOp.output);
  return [JSON.stringify(answer), JSON.stringify(item.notes ?? []), (await row(type, id)).failureReason ?? "", logged].join("\n");
}

describe("platform error bodies that echo the token", () => {
  const platforms = withFakePlatforms();

  async function publisher(route: "linkedin" | "x") {
    const u = await makeUser({ publishing: true });
    const { access } = await platforms.connect(u, route === "linkedin" ? "linkedin" : "twitter");
    return { u, access };
  }

  it("a refusal that echoes the bearer token fails the draft with a bounded reason that holds no token", async () => {
    const { u, access } = await publisher("linkedin");
    const d = await draft(u, "post", `echo ${randomUUID()}`);
    platforms.fake.misbehave("linkedin", "echo");
    const res = await approved(u, "publish_now", { type: "post", id: d.id });
    expectError(res, 422, "action_failed");
    expect(res.body.error.message).toMatch(/^Publishing failed: LinkedIn refused the post \(400: /);
    const shown = await everythingShown(u, "post", d.id, res.body);
    expect(shown).toContain("refused the post");
    expect(shown).not.toContain(access);
    expect(shown).not.toContain("li-secret");
    expect((await row("post", d.id)).failureReason!.length).toBeLessThanOrEqual(400);
  });

  it("a server error that echoes the token is retried, and the reason kept meanwhile holds no token", async () => {
    const { u, access } = await publisher("x");
    const d = await draft(u, "tweet", `echo ${randomUUID()}`);
    const at = inSeconds(120);
    expect((await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at.toISOString() })).status).toBe(200);
    platforms.fake.misbehave("x", "echo500");
    await runDue(await db(), { clock: () => new Date(at.getTime() + 100) });
    const r = await row("tweet", d.id);
    expect(r.status).toBe("scheduled"); // retried later
    expect(r.failureReason).toMatch(/^X had a server error \(503\)/);
    const shown = await everythingShown(u, "tweet", d.id, null);
    expect(shown).not.toContain(access);
  });
});

describe("a database error while publishing", () => {
  // The sandbox stores the post: without its table the insert fails with SQL and parameters.
  const breakSandbox = async () => (await db()).execute(sql`alter table sandbox_posts rename to sandbox_posts_away`);
  const mendSandbox = async () => (await db()).execute(sql`alter table sandbox_posts_away rename to sandbox_posts`);

  it("publish_now answers, records and logs a generic reason with an error id, never the SQL", async () => {
    const u = await makeUser({ publishing: true });
    const text = `private words ${randomUUID()}`;
    const d = await draft(u, "post", text);
    const ask = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    const { decideApproval } = await import("@/lib/domain/approvals/approvals");
    expect(await decideApproval(await db(), u.id, ask.body.error.confirmation.id, "approved")).toBe(true);
    logged = "";
    await breakSandbox();
    let res;
    try {
      res = await call("publish_now", { type: "post", id: d.id }, { token: u.token });
    } finally {
      await mendSandbox();
    }
    expectError(res, 422, "action_failed");
    const reason = (await row("post", d.id)).failureReason!;
    const errorId = /error id ([0-9a-f-]{36})/.exec(reason)?.[1];
    expect(errorId, reason).toBeDefined();
    expect(res.body.error.message).toContain(errorId);
    expect(logged).toContain(errorId);
    const shown = await everythingShown(u, "post", d.id, res.body);
    for (const leak of ["sandbox_posts", "insert into", "Failed query", "params", text]) expect(shown).not.toContain(leak);
  });

  it("the scheduler records the same generic reason", async () => {
    const u = await makeUser({ publishing: true });
    const text = `scheduled words ${randomUUID()}`;
    const d = await draft(u, "post", text);
    const at = inSeconds(120);
    expect((await approved(u, "schedule_content", { type: "post", id: d.id, scheduled_for: at.toISOString() })).status).toBe(200);
    logged = "";
    await breakSandbox();
    try {
      await runDue(await db(), { clock: () => new Date(at.getTime() + 100) });
    } finally {
      await mendSandbox();
    }
    const r = await row("post", d.id);
    expect(r.status).toBe("unknown");
    expect(r.failureReason).toMatch(/^an unexpected error stopped publishing \(error id [0-9a-f-]{36}\)/);
    const shown = await everythingShown(u, "post", d.id, null);
    for (const leak of ["sandbox_posts", "insert into", "Failed query", text]) expect(shown).not.toContain(leak);
  });
});
