import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { splitThread, writer } from "@/lib/adapters/ai";
import { db } from "@/lib/adapters/db";
import { tweetWeight } from "@/lib/domain/drafts/text";
import { networkNamed } from "@/lib/domain/networks";
import { fetchItemOp } from "@/lib/operations/drafts/fetch-item";
import { generateTweetOp } from "@/lib/operations/generation/generate-tweet";
import { replacePorts } from "@/lib/adapters/ports";
import { allowancePeriods, users } from "@/drizzle/schema";
import { call, expectError, expectOk, makeUser, type TestUser } from "../helpers/api";
import { withDatabase } from "../helpers/db";
import { fixedModel } from "../helpers/model";

withDatabase();
afterEach(() => replacePorts());

async function voiced(): Promise<TestUser> {
  const u = await makeUser();
  await (
    await db()
  )
    .update(users)
    .set({ niche: "developer tooling", tone: ["direct"], traits: ["Pragmatic"], samplePosts: ["Ship small things.\n\nKeep shipping."] })
    .where(eq(users.id, u.id));
  return u;
}

describe("generate_tweet as a thread", () => {
  it("the offline composer writes the asked number of parts in the user's voice, stored as body and thread", async () => {
    const u = await voiced();
    const topic = "Small pull requests ship faster. Reviewers read them. Bugs hide in big diffs. Smaller batches mean calmer releases.";
    const res = expectOk(await call("generate_tweet", { topic, as_thread: true, parts: 4 }, { token: u.token }), generateTweetOp.output);
    expect(res.thread).toHaveLength(3);
    const all = [res.text, ...res.thread];
    for (const p of all) expect(tweetWeight(p)).toBeLessThanOrEqual(280);
    expect(res.text).toContain("Small pull requests ship faster.");
    expect(all.join(" ")).toContain("Bugs hide in big diffs.");
    expect(all[3]).toContain("Keep shipping."); // the author's sign-off closes the thread
    expect(new Set(all).size).toBe(4);
    const item = expectOk(await call("fetch_item", { type: "tweet", id: res.draft_id }, { token: u.token }), fetchItemOp.output);
    expect(item.body).toBe(res.text);
    expect(item.thread).toEqual(res.thread.map((text: string) => ({ text, image_urls: [] })));
    // One AI action, as for one tweet.
    const [period] = await (await db()).select().from(allowancePeriods).where(eq(allowancePeriods.userId, u.id));
    expect(period.aiActionsUsed).toBe(1);
  });

  it("defaults to 5 parts, condenses a post draft into one, and keeps the plain answer for a single tweet", async () => {
    const u = await voiced();
    const post = await call(
      "create_draft",
      { type: "post", body: "Deploys should be boring.\n\nAutomate them. Test them. Roll back fast." },
      { token: u.token },
    );
    const res = expectOk(await call("generate_tweet", { from_post_id: post.body.id, as_thread: true }, { token: u.token }), generateTweetOp.output);
    expect(res.thread).toHaveLength(4);
    expect(res.from_post_id).toBe(post.body.id);
    const single = expectOk(await call("generate_tweet", { topic: "One tweet only" }, { token: u.token }), generateTweetOp.output);
    expect(single).not.toHaveProperty("thread");
  });

  it("takes the model's parts, fitted to X's limit; a model that ignores the separator is cut at sentences", async () => {
    const u = await voiced();
    replacePorts({ model: writer(() => fixedModel(`First part, the hook.\n---\n${"Long ".repeat(80)}\n---\nLast part.\n---\nOne too many.`)) });
    const res = expectOk(await call("generate_tweet", { topic: "Anything", as_thread: true, parts: 3 }, { token: u.token }), generateTweetOp.output);
    expect([res.text, ...res.thread]).toHaveLength(3);
    expect(res.text).toBe("First part, the hook.");
    expect(tweetWeight(res.thread[0])).toBeLessThanOrEqual(280);
    expect(res.thread[1]).toBe("Last part.");
    expect(splitThread(`${"A sentence that is long enough to matter here. ".repeat(12)}`, 5, networkNamed("x").text).length).toBeGreaterThanOrEqual(2);
  });

  it("refuses parts outside 2 to 25, and parts without as_thread", async () => {
    const u = await voiced();
    for (const body of [
      { topic: "Topic", as_thread: true, parts: 1 },
      { topic: "Topic", as_thread: true, parts: 26 },
      { topic: "Topic", parts: 3 },
      { topic: "Topic", as_thread: false },
    ]) {
      const res = await call("generate_tweet", body, { token: u.token });
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([Object.keys(body)[Object.keys(body).length - 1]]);
    }
  });
});
