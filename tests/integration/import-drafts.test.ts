import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { config } from "@/lib/core/config";
import { ports } from "@/lib/adapters/ports";
import { draftImports, postDrafts, tweetDrafts } from "@/drizzle/schema";
import { planImport, planHash, recentImports } from "@/lib/domain/drafts/import";
import { ownerContext } from "@/lib/domain/owner/owner";
import { getProfile } from "@/lib/domain/owner/onboarding";
import { importDraftsOp, parseRows } from "@/lib/operations/drafts/import-drafts";
import { manageQueueOp } from "@/lib/operations/queue/manage-queue";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { mcpClient } from "../helpers/mcp";
import { asOwner } from "../helpers/owner";
import { withFakePlatforms } from "../helpers/platform-fixture";

// import_drafts: many drafts at once, all or none, each row checked as create_draft checks a
// draft and every bad row named by its number; and the Import page's confirm and undo.

withDatabase();
const platforms = withFakePlatforms({ SCHEDULE_MIN_LEAD_SECONDS: "1" });

async function owner() {
  const u = await makeUser({ publishing: true });
  const li = await platforms.connect(u, "linkedin", { refresh: `r-${randomUUID()}` });
  const x = await platforms.connect(u, "twitter", { refresh: `r-${randomUUID()}` });
  const profile = (await call("get_profile_context", {}, { token: u.token })).body as { accounts: { account_id: string; network: string }[] };
  const id = (n: string) => profile.accounts.find((a) => a.network === n)!.account_id;
  (void li, x);
  return { u, li: id("linkedin"), x: id("x") };
}

/** Twenty good rows: LinkedIn posts and tweets, alternating. */
const twenty = (li: string, x: string) =>
  Array.from({ length: 20 }, (_, i) =>
    i % 2
      ? { network: "x", account_id: x, text: `Tweet number ${i + 1}` }
      : { network: "linkedin", account_id: li, text: `Post number ${i + 1}\n\nA longer body.` },
  );

async function stored(u: TestUser) {
  const d = await db();
  const posts = await d.select({ id: postDrafts.id }).from(postDrafts).where(eq(postDrafts.userId, u.id));
  const tweets = await d.select({ id: tweetDrafts.id }).from(tweetDrafts).where(eq(tweetDrafts.userId, u.id));
  const imports = await d.select({ id: draftImports.id }).from(draftImports).where(eq(draftImports.userId, u.id));
  return { posts: posts.length, tweets: tweets.length, imports: imports.length };
}

type Imported = { import_id: string; drafts: { row: number; id: string; scheduled_for: string | null; intended_for: string | null }[] };
const imported = (res: Awaited<ReturnType<typeof call>>) => expectOk(res, importDraftsOp.output) as Imported;

const ownerCtx = async (u: TestUser) => ownerContext(await db(), { id: u.id, ...(await getProfile(await db(), u.id))! }, ports());

const rowsNamed = (details: { path: string; message: string }[]) => [...new Set(details.map((d) => d.message.match(/^Row (\d+)/)![1]))].map(Number);

describe("import_drafts", () => {
  it("refuses 20 rows with two bad ones naming rows 4 and 17, stores nothing; fixed, makes 20 drafts", async () => {
    const { u, li, x } = await owner();
    const other = await owner();
    const rows: Record<string, unknown>[] = twenty(li, x);
    rows[3] = { network: "x", account_id: x, text: "y".repeat(281) }; // over X's 280
    rows[16] = { network: "linkedin", account_id: other.li, text: "To someone else's page" };
    const res = await call("import_drafts", { rows }, { token: u.token });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.message).toBe("Rows 4, 17 have problems; nothing was imported.");
    expect(rowsNamed(res.body.error.details)).toEqual([4, 17]);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(["rows.3.text", "rows.16.account_id"]);
    expect(await stored(u)).toEqual({ posts: 0, tweets: 0, imports: 0 });

    rows[3] = { network: "x", account_id: x, text: "Short again" };
    rows[16] = { network: "linkedin", text: "To my default page", scheduled_for: new Date(Date.now() + 86400_000).toISOString() };
    const ok = imported(await call("import_drafts", { rows }, { token: u.token }));
    expect(ok.drafts.map((d) => d.row)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(ok.drafts.every((d) => d.scheduled_for === null)).toBe(true);
    expect(ok.drafts[16].intended_for).toBe(rows[16].scheduled_for);
    // Ten posts, ten tweets, each tweet with its parent post (as create_draft makes one).
    expect(await stored(u)).toEqual({ posts: 20, tweets: 10, imports: 1 });
    const t = await call("fetch_item", { type: "tweet", id: ok.drafts[3].id }, { token: u.token });
    expect(t.body).toMatchObject({ body: "Short again", status: "draft" });
  });

  it("answers another user's account_id exactly as a missing one", async () => {
    const { u } = await owner();
    const other = await owner();
    const theirs = await call("import_drafts", { rows: [{ network: "x", account_id: other.x, text: "hi" }] }, { token: u.token });
    const none = await call("import_drafts", { rows: [{ network: "x", account_id: randomUUID(), text: "hi" }] }, { token: u.token });
    expectError(theirs, 400, "invalid_request");
    expect(theirs.body.error).toEqual(none.body.error);
    expect(theirs.body.error.details).toEqual([{ path: "rows.0.account_id", message: "Row 1 (account_id): No X account of yours has this id" }]);
  });

  it("names every malformed row at once, in the spec's shape, never a 500", async () => {
    const { u, li } = await owner();
    const rows = [
      { network: "linkedin", text: "Fine" },
      "not a row",
      { network: "myspace", text: "Where?" },
      { network: "linkedin", text: "" },
      { network: "linkedin", text: "Threads are for tweets", thread: ["two"] },
      { network: "linkedin", account_id: li, text: "ok", status: "published" },
      { network: "x", text: "Yesterday", scheduled_for: "2020-01-01T09:00:00Z" },
      { network: "x", text: "No offset", scheduled_for: "2030-01-01T09:00:00" },
      { network: "linkedin", text: "Not my image", image_urls: [`${config().origin}/media/${randomUUID()}`] },
    ];
    const res = await call("import_drafts", { rows }, { token: u.token });
    expectError(res, 400, "invalid_request");
    expect(rowsNamed(res.body.error.details)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(res.body.error.message).toBe("Rows 2, 3, 4, 5, 6, 7, 8, 9 have problems; nothing was imported.");
    expect(await stored(u)).toEqual({ posts: 0, tweets: 0, imports: 0 });

    for (const body of [
      { rows: [] },
      { rows: "x" },
      {},
      { rows: Array.from({ length: 201 }, () => ({ network: "x", text: "a" })) },
      { rows: [{}], extra: 1 },
    ]) {
      const bad = await call("import_drafts", body, { token: u.token });
      expectError(bad, 400, "invalid_request");
    }
    // Larger than any body the API reads: the body cap's answer, in the same shape.
    const huge = await call(
      "import_drafts",
      { rows: Array.from({ length: 200 }, () => ({ network: "linkedin", text: "a".repeat(2000) })) },
      { token: u.token },
    );
    expect(huge.body.error).toMatchObject({ code: "invalid_request", details: [{ path: "(body)", message: "The body is larger than 256 KiB" }] });
    expect(await stored(u)).toEqual({ posts: 0, tweets: 0, imports: 0 });
  });

  it("over MCP: the same refusal as a tool error, then the drafts", async () => {
    const { u, li, x } = await owner();
    const client = await mcpClient(u.token);
    const rows: Record<string, unknown>[] = twenty(li, x);
    rows[3] = { network: "x", account_id: x, text: "y".repeat(281) };
    rows[16] = { network: "linkedin", account_id: randomUUID(), text: "Nobody's page" };
    const bad = (await client.callTool({ name: "import_drafts", arguments: { rows } })) as { isError?: boolean; content: { text: string }[] };
    expect(bad.isError).toBe(true);
    const error = JSON.parse(bad.content[0].text).error;
    expect(error.code).toBe("invalid_request");
    expect(rowsNamed(error.details)).toEqual([4, 17]);
    expect(await stored(u)).toEqual({ posts: 0, tweets: 0, imports: 0 });
    rows[3] = { network: "x", text: "Fixed" };
    rows[16] = { network: "linkedin", text: "Fixed too" };
    const good = (await client.callTool({ name: "import_drafts", arguments: { rows } })) as unknown as { structuredContent: { drafts: unknown[] } };
    expect(good.structuredContent.drafts).toHaveLength(20);
    expect(await stored(u)).toEqual({ posts: 20, tweets: 10, imports: 1 });
    await client.close();
  });
});

describe("the Import page's confirm and undo (import_to_queue, remove_import)", () => {
  it("schedules untimed rows into the next free slots in order, only on the plan the preview showed; Remove takes them all back", async () => {
    const { u, li, x } = await owner();
    const every = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].flatMap((weekday) => [{ weekday, time: "09:00" }]);
    expectOk(await call("manage_queue", { account_id: li, slots: every }, { token: u.token }), manageQueueOp.output);
    const q = expectOk(await call("manage_queue", { account_id: x, slots: every }, { token: u.token }), manageQueueOp.output) as { next_slots: string[] };
    const at = new Date(Date.now() + 3 * 86400_000 + 3600_000).toISOString();
    const rows = [
      { network: "linkedin", text: "First post" },
      { network: "x", text: "First tweet" },
      { network: "linkedin", text: "Second post" },
      { network: "x", text: "At its own time", scheduled_for: at },
      { network: "x", text: "Second tweet" },
    ];
    // The page's preview: the plan and its hash.
    const ctx = await ownerCtx(u);
    const parsed = parseRows(rows);
    const plan = await planImport(ctx, parsed.rows, parsed.problems, { queue: true });
    expect(plan.problems).toEqual([]);

    // A confirm that does not carry what the preview showed does nothing.
    const forged = await asOwner(u, "import_to_queue", { rows }, { shown: "something else" });
    expectError(forged, 422, "action_failed");
    expect(await stored(u)).toEqual({ posts: 0, tweets: 0, imports: 0 });

    const done = await asOwner(u, "import_to_queue", { rows }, { shown: planHash(plan.planned) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const when = done.body.drafts.map((d: { scheduled_for: string }) => d.scheduled_for);
    const slots = q.next_slots.map((s) => new Date(s).toISOString());
    expect(when).toEqual([slots[0], slots[0], slots[1], new Date(at).toISOString(), slots[1]]);

    // An app may not undo it: remove_import is the owner's, in person.
    expectError(await call("remove_import", { import_id: done.body.import_id }, { token: u.token }), 404, "unknown_operation");
    const [view] = await recentImports(ctx);
    expect(view.drafts).toHaveLength(5);
    const stale = await asOwner(u, "remove_import", { import_id: done.body.import_id }, { shown: "stale" });
    expectError(stale, 422, "action_failed");
    const removed = await asOwner(u, "remove_import", { import_id: done.body.import_id }, { shown: view.hash });
    expect(removed.body).toEqual({ import_id: done.body.import_id, removed: 5, kept: [] });
    // The tweets' parent posts went with them.
    expect(await stored(u)).toEqual({ posts: 0, tweets: 0, imports: 0 });
  });

  it("keeps what was published and says so", async () => {
    const { u, li } = await owner();
    const ok = imported(
      await call(
        "import_drafts",
        {
          rows: [
            { network: "linkedin", account_id: li, text: "One" },
            { network: "linkedin", text: "Two" },
          ],
        },
        { token: u.token },
      ),
    );
    await (
      await db()
    )
      .update(postDrafts)
      .set({ status: "published" })
      .where(and(eq(postDrafts.id, ok.drafts[1].id), eq(postDrafts.userId, u.id)));
    const [view] = await recentImports(await ownerCtx(u));
    expect(view.by).toEqual(expect.any(String)); // the app's name
    const removed = await asOwner(u, "remove_import", { import_id: ok.import_id }, { shown: view.hash });
    expect(removed.body).toEqual({ import_id: ok.import_id, removed: 1, kept: [{ row: 2, type: "post", id: ok.drafts[1].id, status: "published" }] });
    expect(await stored(u)).toEqual({ posts: 1, tweets: 0, imports: 1 });
  });
});
