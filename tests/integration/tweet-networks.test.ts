import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/adapters/db";
import { tweetDrafts } from "@/drizzle/schema";
import { setDefaultAccount } from "@/lib/domain/accounts/accounts";
import { destination } from "@/lib/adapters/platforms/destination";
import { createDraftOp } from "@/lib/operations/drafts/create-draft";
import { updateDraftOp } from "@/lib/operations/drafts/update-draft";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { withConfig } from "../helpers/env";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { accounts, connectBluesky } from "../helpers/microblog";
import { approved, inSeconds, row } from "../helpers/publishing";

// A tweet goes to X or to Bluesky, whichever account it names (else the default microblog
// account), and its text is held to that network's limit: X counts 280 weighted characters
// (a link 23, an emoji 2), Bluesky 300 graphemes and 3,000 bytes.

withDatabase();
withConfig({ SCHEDULE_MIN_LEAD_SECONDS: "1" });
const platforms = withFakePlatforms();

const create = (u: TestUser, body: Record<string, unknown>) => call("create_draft", { type: "tweet", ...body }, { token: u.token });
const paths = (res: { body: { error: { details: { path: string }[] } } }) => res.body.error.details.map((d) => d.path);

describe("a tweet's network", () => {
  it("get_profile_context names each account's network; the first microblog account connected is the default of X and Bluesky together", async () => {
    const u = await makeUser();
    await platforms.connect(u, "twitter");
    await connectBluesky(u);
    const list = await accounts(u);
    expect(list.map((a) => [a.platform, a.network, a.default])).toEqual([
      ["micro", "x", true],
      ["micro", "bluesky", false],
    ]);
  });

  it("is held to the limit of the account it names: 300 graphemes on Bluesky, 280 weighted characters on X", async () => {
    const u = await makeUser();
    await platforms.connect(u, "twitter");
    await connectBluesky(u);
    const [x, bsky] = await accounts(u);
    const long = "a".repeat(290);
    // To X (the default): over 280.
    const refused = await create(u, { body: long });
    expectError(refused, 400, "invalid_request");
    expect(refused.body.error.details).toEqual([
      { path: "body", message: expect.stringMatching(/^A tweet is at most 280 characters as X counts them.*this one is 290$/) },
    ]);
    expectError(await create(u, { body: long, account_id: x.account_id }), 400, "invalid_request");
    // To Bluesky: 290 graphemes fit, and so do 300 emoji with skin tones (600 as X weighs them, 2,400 bytes).
    expectOk(await create(u, { body: long, account_id: bsky.account_id }), createDraftOp.output);
    expectOk(await create(u, { body: "👍🏽".repeat(300), account_id: bsky.account_id }), createDraftOp.output);
    // A letter with a combining accent is one grapheme: 300 of them fit, 301 do not.
    expectOk(await create(u, { body: "e\u0301".repeat(300), account_id: bsky.account_id }), createDraftOp.output);
    const over = await create(u, { body: "Start", thread: [{ text: "e\u0301".repeat(301) }], account_id: bsky.account_id });
    expectError(over, 400, "invalid_request");
    expect(over.body.error.details).toEqual([
      {
        path: "thread.0.text",
        message:
          "thread[0] (part 2 of the thread): A Bluesky post is at most 300 characters as Bluesky counts them " +
          "(an emoji or a letter with its accents is 1); this one is 301",
      },
    ]);
    // 121 family emoji are 121 graphemes but 3,025 bytes: past the 3,000 bytes of a post's text.
    const family = await create(u, { body: "👨‍👩‍👧‍👦".repeat(121), account_id: bsky.account_id });
    expectError(family, 400, "invalid_request");
    expect(family.body.error.details[0].message).toBe("A Bluesky post is at most 3000 bytes of UTF-8; this one has 3025");
    // A first comment is a reply on the same network.
    expect(paths(await create(u, { body: "ok", first_comment: long }))).toEqual(["first_comment"]);
    expectOk(await create(u, { body: "ok", first_comment: long, account_id: bsky.account_id }), createDraftOp.output);
  });

  it("update_draft refuses to move a text to a network it does not fit, changing nothing", async () => {
    const u = await makeUser();
    await platforms.connect(u, "twitter");
    await connectBluesky(u);
    const [x, bsky] = await accounts(u);
    const d = expectOk(await create(u, { body: "b".repeat(290), account_id: bsky.account_id }), createDraftOp.output);
    const moved = await call("update_draft", { type: "tweet", id: d.id, account_id: x.account_id }, { token: u.token });
    expectError(moved, 400, "invalid_request");
    expect(paths(moved)).toEqual(["body"]);
    expect((await row("tweet", d.id)).accountId).toBe(bsky.account_id);
    // Back to the default (X): refused too.
    expectError(await call("update_draft", { type: "tweet", id: d.id, account_id: null }, { token: u.token }), 400, "invalid_request");
    expectOk(await call("update_draft", { type: "tweet", id: d.id, body: "c".repeat(299) }, { token: u.token }), updateDraftOp.output);
  });

  it("goes to the default microblog account, whichever network that is; scheduling checks the text against where it goes then", async () => {
    const u = await makeUser({ publishing: true });
    await platforms.connect(u, "twitter", { refresh: "x-refresh-0" });
    await connectBluesky(u);
    const [x, bsky] = await accounts(u);
    expect(await setDefaultAccount(await db(), u.id, bsky.account_id)).toBe(true);
    const d = expectOk(await create(u, { body: "d".repeat(290) }), createDraftOp.output);
    expect((await row("tweet", d.id)).accountId).toBeNull();
    // The default moved back to X before it was scheduled: the text does not fit X, and nothing is scheduled.
    expect(await setDefaultAccount(await db(), u.id, x.account_id)).toBe(true);
    const at = inSeconds(3600).toISOString();
    const refused = await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at });
    expectError(refused, 422, "action_failed");
    expect(refused.body.error.message).toMatch(/^This draft does not fit X: A tweet is at most 280 characters/);
    expect((await row("tweet", d.id)).status).toBe("draft");
    // Named for Bluesky, it is scheduled there, and the approval asked for names the network.
    expectOk(await call("update_draft", { type: "tweet", id: d.id, account_id: bsky.account_id }, { token: u.token }), updateDraftOp.output);
    const asked = await call("schedule_content", { type: "tweet", id: d.id, scheduled_for: at }, { token: u.token });
    expectError(asked, 403, "confirmation_required");
    expect(asked.body.error.confirmation.action.account).toEqual({
      id: bsky.account_id,
      name: "writer.bsky.test",
      handle: "writer.bsky.test",
      kind: "person",
      network: "bluesky",
    });
    expect(destination("tweet", asked.body.error.confirmation.action.account.handle, asked.body.error.confirmation.action.account.network).account).toBe(
      "Bluesky (writer.bsky.test)",
    );
    const ok = await approved(u, "schedule_content", { type: "tweet", id: d.id, scheduled_for: at });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [r] = await (await db()).select().from(tweetDrafts).where(eq(tweetDrafts.id, d.id));
    expect(r).toMatchObject({ status: "scheduled", accountId: bsky.account_id });
  });
});
