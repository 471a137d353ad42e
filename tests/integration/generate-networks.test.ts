import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { writer } from "@/lib/adapters/ai";
import { db } from "@/lib/adapters/db";
import { replacePorts } from "@/lib/adapters/ports";
import { setDefaultAccount } from "@/lib/domain/accounts/accounts";
import { tweetWeight } from "@/lib/domain/drafts/text";
import { graphemes } from "@/lib/domain/networks/bluesky";
import { generateTweetOp } from "@/lib/operations/generation/generate-tweet";
import { users } from "@/drizzle/schema";
import { call, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { accounts, connectBluesky } from "../helpers/microblog";
import { scriptedModel } from "../helpers/model";
import { withFakePlatforms } from "../helpers/platform-fixture";
import { asOwner } from "../helpers/owner";

// generate_tweet writes for the network its draft goes to (the account it names, else the
// default microblog account): the model is told that network and its limit, and what it
// answers is kept, asked for again or trimmed by that network's text rule. X counts 280
// weighted characters (a link 23, a CJK character 2); Bluesky 300 graphemes, a link in full.

withDatabase();
const platforms = withFakePlatforms();
afterEach(() => replacePorts());

/** 290 characters of plain words: over X's 280, within Bluesky's 300. */
const PLAIN = `${"Small diffs ship. ".repeat(16)}Done now.`.slice(0, 290);
/** 150 CJK characters: 300 as X weighs them, 150 graphemes on Bluesky. */
const CJK = "小さな変更は早く届く".repeat(15);
/** Sentences of 144 characters: one a tweet on X, two a post on Bluesky. */
const SENTENCE = `${"word ".repeat(27)}ends now.`;

/** A voiced owner with an X account (the default) and a Bluesky account. */
async function owner() {
  const u = await makeUser();
  await (
    await db()
  )
    .update(users)
    .set({ niche: "developer tooling", tone: ["direct"] })
    .where(eq(users.id, u.id));
  await platforms.connect(u, "twitter");
  await connectBluesky(u);
  const [x, bsky] = await accounts(u);
  expect([x.network, x.default, bsky.network]).toEqual(["x", true, "bluesky"]);
  return { u, x: x.account_id, bsky: bsky.account_id };
}

/** generate_tweet with a model answering `answers` in turn; what it wrote and what the model was asked. */
async function generate(u: TestUser, body: Record<string, unknown>, ...answers: string[]) {
  const m = scriptedModel(...answers);
  replacePorts({ model: writer(() => m.model) });
  const res = expectOk(await call("generate_tweet", { topic: "Small pull requests", ...body }, { token: u.token }), generateTweetOp.output);
  return { res, calls: m.calls };
}

describe("generate_tweet for the account's network", () => {
  it("keeps a text Bluesky takes whole for a Bluesky account, telling the model Bluesky's limit; for X asks again and trims", async () => {
    const { u, bsky } = await owner();
    const toBsky = await generate(u, { account_id: bsky }, PLAIN);
    expect(toBsky.res.text).toBe(PLAIN);
    expect(toBsky.calls).toHaveLength(1);
    expect(toBsky.calls[0].system).toContain("one post for Bluesky");
    expect(toBsky.calls[0].system).toContain("at most 300 characters as Bluesky counts them (every link counts in full)");
    expect(toBsky.calls[0].system).not.toMatch(/\bX\b|280|counts 23/);
    const item = await call("fetch_item", { type: "tweet", id: toBsky.res.draft_id }, { token: u.token });
    expect(item.body).toMatchObject({ body: PLAIN, account_id: bsky });

    // No account named: the default, X, whose limit the text is over.
    const toX = await generate(u, {}, PLAIN);
    expect(toX.calls).toHaveLength(2);
    expect(toX.calls[0].system).toContain("at most 280 characters as X counts them (every link counts 23");
    expect(toX.calls[1].prompt).toContain("The last draft did not fit: A tweet is at most 280 characters as X counts them");
    expect(tweetWeight(toX.res.text)).toBeLessThanOrEqual(280);
    expect(toX.res.text).toMatch(/…$/);
  });

  it("writes for the default microblog account when it is Bluesky, and for X when the call names X", async () => {
    const { u, x, bsky } = await owner();
    expect(await setDefaultAccount(await db(), u.id, bsky)).toBe(true);
    const toDefault = await generate(u, {}, CJK);
    expect(toDefault.res.text).toBe(CJK);
    expect(toDefault.calls).toHaveLength(1);
    expect(toDefault.calls[0].system).toContain("Bluesky");
    // 150 CJK characters weigh 300 on X: asked again (the same answer), then trimmed.
    const toX = await generate(u, { account_id: x }, CJK);
    expect(toX.calls).toHaveLength(2);
    expect(tweetWeight(toX.res.text)).toBeLessThanOrEqual(280);
    expect(CJK.startsWith(toX.res.text.slice(0, -1))).toBe(true);
  });

  it("writes a thread for Bluesky by Bluesky's rule: its parts and its packing", async () => {
    const { u, bsky } = await owner();
    const thread = { as_thread: true, parts: 3 };
    const parted = await generate(u, { ...thread, account_id: bsky }, `${PLAIN}\n---\nTwo.\n---\nThree.`);
    expect([parted.res.text, ...parted.res.thread!]).toEqual([PLAIN, "Two.", "Three."]);
    expect(parted.calls[0].system).toContain("one thread of exactly 3 posts for Bluesky");
    expect(parted.calls[0].system).toContain("exactly 3 posts, each at most 300 characters as Bluesky counts them");
    // A model that ignored the separator: its sentences packed two a post on Bluesky, one a tweet on X.
    const block = Array(4).fill(SENTENCE).join(" ");
    const packed = await generate(u, { ...thread, account_id: bsky }, block);
    expect([packed.res.text, ...packed.res.thread!]).toEqual([`${SENTENCE} ${SENTENCE}`, `${SENTENCE} ${SENTENCE}`]);
    for (const p of [packed.res.text, ...packed.res.thread!]) expect(graphemes(p)).toBe(289);
    const toX = await generate(u, thread, block);
    expect([toX.res.text, ...toX.res.thread!]).toEqual([SENTENCE, SENTENCE, SENTENCE]);
  });
});

describe("the composer's AI help for the chosen account's network", () => {
  /** assist_writing as the composer's form sends it, with a model answering `answers` (none: the offline composer). */
  async function help(u: TestUser, input: Record<string, unknown>, ...answers: string[]) {
    const m = scriptedModel(...answers);
    if (answers.length) replacePorts({ model: writer(() => m.model) });
    return { res: await asOwner(u, "assist_writing", input), calls: m.calls };
  }

  it("writes, shortens and threads within Bluesky's limit for a Bluesky account, and within X's for the default", async () => {
    const { u, bsky } = await owner();
    const written = await help(u, { action: "write", format: "tweet", topic: "Small pull requests", account_id: bsky }, PLAIN);
    expect(written.res.body).toEqual({ parts: [PLAIN] });
    expect(written.calls).toHaveLength(1);
    expect(written.calls[0].system).toContain("at most 300 characters as Bluesky counts them (every link counts in full)");
    const shortened = await help(u, { action: "shorten", format: "tweet", text: `${PLAIN} ${PLAIN}`, account_id: bsky }, PLAIN);
    expect(shortened.res.body).toEqual({ parts: [PLAIN] });
    expect(shortened.calls[0].system).toContain("one post for Bluesky");
    const block = Array(4).fill(SENTENCE).join(" ");
    const thread = await help(u, { action: "thread", text: block, parts: 3, account_id: bsky }, block);
    expect(thread.res.body.parts).toEqual([`${SENTENCE} ${SENTENCE}`, `${SENTENCE} ${SENTENCE}`]);
    // The default account (X): the same answers fitted to X.
    const toX = await help(u, { action: "write", format: "tweet", topic: "Small pull requests" }, PLAIN);
    expect(toX.calls).toHaveLength(2);
    expect(tweetWeight(toX.res.body.parts[0])).toBeLessThanOrEqual(280);
    // Another owner's account is as a missing one, and nothing is asked of the model.
    const other = await owner();
    const foreign = await help(u, { action: "write", format: "tweet", topic: "Small pull requests", account_id: other.bsky }, PLAIN);
    expect([foreign.res.status, foreign.res.body.error.code, foreign.calls.length]).toEqual([422, "action_failed", 0]);
    expect(foreign.res.body.error.message).toBe("No X or Bluesky account (account_id) with that id exists in your account.");
  });

  it("the offline composer fits a rewrite to Bluesky's 300, past X's 280", async () => {
    const { u, bsky } = await owner();
    const text = `${"A long sentence about shipping small changes, reviewed the same day by a colleague who cares. ".repeat(8)}`.trim();
    const { res } = await help(u, { action: "rewrite", format: "tweet", text, account_id: bsky });
    const [out] = res.body.parts as string[];
    expect(graphemes(out)).toBeGreaterThan(280);
    expect(graphemes(out)).toBeLessThanOrEqual(300);
    expect(out).toMatch(/…$/);
  });
});
