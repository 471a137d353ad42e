import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakePlatforms, type FakePlatforms, fakePlatformEnv } from "../helpers/fake-platforms";
import { axe, launchBrowser, newPage, openSignedIn, screenshots } from "./browser";
import { TestServer } from "./harness";
import { computedLinkedInVersion } from "@/lib/adapters/platforms/linkedin-version";

// Scheduled publishing on a built server (`npm start`): the in-process scheduler posts
// through the real LinkedIn and X adapters to fakes on loopback, once each, on time. The
// approvals come from the admin command, as an owner without a browser would give them.
let adminMs = 0;
const EMAIL = "writer@example.com";
const PASSWORD = "correct horse battery";
const MEMBER = "li-member-7Qx"; // LinkedIn's `sub`, stored by sign-in as the account id
const srv = new TestServer();
let fake: FakePlatforms;
let token = "";

const api = async (op: string, body: unknown) => srv.api(op, body, token);

async function status(type: "post" | "tweet", id: string) {
  return (await api("fetch_item", { type, id })).body as { status: string; notes?: string[]; scheduled_for: string | null };
}

async function until(pred: () => Promise<boolean>, ms: number) {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) if (await pred()) return;
}

const sleepUntil = (at: Date) => new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now())));

beforeAll(async () => {
  fake = await startFakePlatforms();
  await srv.setup();
  Object.assign(srv.env, {
    ...fakePlatformEnv(fake),
    SCHEDULE_MIN_LEAD_SECONDS: "1",
    SCHEDULER_POLL_MS: "200",
    RATE_LIMIT_SCALE: "10",
  });
  // Before the first start (the user exists, so no owner is created): the user with the
  // publishing switch on, the connections sign-in would have stored, and an API token.
  await srv.admin("create-user", "--email", EMAIL, "--password", PASSWORD, "--plan", "creator", "--allow-publishing");
  const past = Math.floor(Date.now() / 1000) - 60;
  await srv.seedAccounts(EMAIL, [
    {
      provider: "linkedin",
      providerAccountId: MEMBER,
      access_token: "li-access-0",
      refresh_token: "li-refresh-0",
      expires_at: past + 3600 * 24,
      handle: "Writer",
    },
    // Expired a minute ago: the first tweet must renew it (X rotates the refresh token).
    {
      provider: "twitter",
      providerAccountId: "x-user-1",
      access_token: "x-access-stale",
      refresh_token: "x-refresh-0",
      expires_at: past,
      handle: "@writer",
    },
  ]);
  const t0 = Date.now();
  token = JSON.parse((await srv.admin("issue-token", "--email", EMAIL, "--app", "E2E Assistant")).stdout).access_token;
  adminMs = Date.now() - t0;
  await srv.start();
}, 600_000);

afterAll(async () => {
  await srv.teardown();
  await fake.close();
});

describe("scheduled publishing on a running server", () => {
  it("posts to LinkedIn and X once each, on time; an unscheduled post never, a rescheduled one at its new time", async () => {
    const text = "Ship (small) changes #daily with @team: 2*2 [not] {a} <b> ~c_d | e\\f";
    const tweetText = "Small PRs, fast reviews. Café ☕ at 9!";
    const mk = async (type: "post" | "tweet", body: string) => (await api("create_draft", { type, body })).body.id as string;
    const comment = "Slides (with notes): https://example.com/talk #daily";
    const post = (await api("create_draft", { type: "post", body: text, first_comment: comment })).body.id as string;
    const tweet = await mk("tweet", tweetText);
    const dropped = await mk("post", "This one is taken back before its time.");
    const moved = await mk("post", "This one goes out later than first planned.");

    // The five approvals happen before Ta: the lead is measured by how long one admin run took
    // on this machine, at its current load (that one opened the database itself, so slower).
    const ta = new Date(Math.ceil(Date.now() / 1000) * 1000 + Math.max(20_000, 10_000 + 6 * adminMs));
    const tb = new Date(ta.getTime() + 5_000);
    const calls: [string, Record<string, unknown>][] = [
      ["schedule_content", { type: "post", id: post, scheduled_for: ta.toISOString() }],
      ["schedule_content", { type: "tweet", id: tweet, scheduled_for: ta.toISOString() }],
      ["schedule_content", { type: "post", id: dropped, scheduled_for: ta.toISOString() }],
      ["schedule_content", { type: "post", id: moved, scheduled_for: ta.toISOString() }],
      ["schedule_content", { type: "post", id: moved, scheduled_for: tb.toISOString() }],
    ];
    const ids: string[] = [];
    for (const [op, args] of calls) {
      const r = await api(op, args);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("confirmation_required");
      expect(r.body.error.confirmation.action).toMatchObject({ operation: op, id: args.id, scheduled_for: args.scheduled_for });
      ids.push(r.body.error.confirmation.id);
    }
    expect(new Set(ids).size).toBe(5);
    // The running server approves (the admin command hands it the command, as on PGlite it must).
    for (const id of ids) expect(JSON.parse((await srv.admin("approve", "--email", EMAIL, "--id", id)).stdout)).toEqual({ id, status: "approved" });
    expect(Date.now()).toBeLessThan(ta.getTime() - 1500); // the lead above was long enough

    for (const [op, args] of calls) {
      const r = await api(op, args);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({
        id: args.id,
        status: "scheduled",
        scheduled_for: args.scheduled_for,
        rescheduled: args.scheduled_for === tb.toISOString(),
      });
    }
    const un = await api("unschedule_content", { type: "post", id: dropped });
    expect(un.body).toMatchObject({ id: dropped, unscheduled: true, previous_scheduled_for: ta.toISOString(), status: "draft" });
    expect(fake.requests).toEqual([]); // nothing goes out before its time

    // Ta: the post and the tweet go out within a few polls; the others stay put.
    await until(
      async () => (await status("post", post)).status === "published" && (await status("tweet", tweet)).status === "published",
      ta.getTime() - Date.now() + 10_000,
    );
    // Little text: every reserved character escaped but a hashtag's #, so it reads as written.
    const escaped = "Ship \\(small\\) changes #daily with \\@team: 2\\*2 \\[not\\] \\{a\\} \\<b\\> \\~c\\_d \\| e\\\\f";
    const li = fake.requests.filter((r) => r.route === "linkedin");
    expect(li).toHaveLength(1);
    expect(li[0].headers).toMatchObject({
      "linkedin-version": computedLinkedInVersion(new Date()),
      "x-restli-protocol-version": "2.0.0",
      authorization: "Bearer li-access-0",
    });
    expect(li[0].headers["content-type"]).toMatch(/^application\/json/);
    expect(li[0].body).toEqual({
      author: `urn:li:person:${MEMBER}`,
      commentary: escaped,
      visibility: "PUBLIC",
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: false,
    });
    const p = await status("post", post);
    const urn = /as (urn:li:share:\d+): https:\/\/www\.linkedin\.com\/feed\/update\/(urn:li:share:\d+)/.exec(p.notes?.join(" ") ?? "");
    expect(urn?.[1]).toBeTruthy();
    expect(urn?.[2]).toBe(urn?.[1]);
    const postedAt = Date.parse(/Published at (\S+) as/.exec(p.notes![0])![1]);
    expect(postedAt).toBeGreaterThanOrEqual(ta.getTime());
    expect(postedAt).toBeLessThan(ta.getTime() + 3_000);
    // Its first comment, right after it, once: as the member, on that post, as written.
    await until(async () => fake.comments.length > 0, 10_000);
    expect(fake.comments).toEqual([{ id: expect.stringContaining(urn![1]), object: urn![1], actor: `urn:li:person:${MEMBER}`, text: comment }]);

    // The tweet: the stale token was renewed exactly once, then one tweet with the new one.
    expect(fake.refreshes).toEqual({ linkedin: 0, x: 1 });
    expect(fake.tokens.x.refresh).toBe("x-refresh-1");
    const xs = fake.requests.filter((r) => r.route === "x");
    expect(xs).toHaveLength(1);
    expect(xs[0].headers.authorization).toBe("Bearer x-access-1");
    expect(xs[0].body).toEqual({ text: tweetText });
    const t = await status("tweet", tweet);
    expect(t.notes?.join(" ")).toMatch(/as (\d+): https:\/\/x\.com\/writer\/status\/\1$/);

    expect((await status("post", moved)).status).toBe("scheduled");
    expect(fake.count("linkedin", "This one goes out later than first planned.")).toBe(0);

    // Tb: the rescheduled post goes out once, at its new time.
    await sleepUntil(tb);
    await until(async () => (await status("post", moved)).status === "published", 10_000);
    const m = await status("post", moved);
    expect(m.status).toBe("published");
    expect(Date.parse(/Published at (\S+) as/.exec(m.notes![0])![1])).toBeGreaterThanOrEqual(tb.getTime());
    await new Promise((r) => setTimeout(r, 1000)); // a few more polls: nothing else goes out
    expect(fake.posts.linkedin).toEqual([text, "This one goes out later than first planned."]);
    expect(fake.created.linkedin[0].rendered?.hashtags).toEqual(["daily"]);
    expect(fake.posts.x).toEqual([tweetText]);
    expect(fake.count("linkedin", "This one is taken back before its time.")).toBe(0);
    expect(await status("post", dropped)).toMatchObject({ status: "draft", scheduled_for: null });
    expect(fake.comments).toHaveLength(1);
    expect(fake.badRequests).toEqual([]);
  }, 240_000);

  it("a first comment LinkedIn refused is posted again from the post's page, and the post is not sent again", async () => {
    const body = "Our Q3 report is out.";
    const id = (await api("create_draft", { type: "post", body, first_comment: "Read it here: https://example.com/q3" })).body.id as string;
    fake.misbehave("linkedin-comment", "500");
    const asked = await api("publish_now", { type: "post", id });
    expect(asked.body.error.code).toBe("confirmation_required");
    await srv.admin("approve", "--email", EMAIL, "--id", asked.body.error.confirmation.id);
    expect((await api("publish_now", { type: "post", id })).status).toBe(200);
    expect((await api("fetch_item", { type: "post", id })).body.first_comment_result).toMatchObject({ status: "failed" });
    expect(fake.comments).toHaveLength(1); // only the first test's

    const browser = await launchBrowser();
    try {
      const page = await openSignedIn(await newPage(browser), `${srv.origin}/content/post/${id}`, EMAIL, PASSWORD);
      await expect.poll(() => page.getByText(/First comment not posted/).count()).toBe(1);
      await screenshots(page, "first-comment-failed");
      await page.getByRole("button", { name: "Post the first comment again" }).click();
      await expect.poll(() => page.getByText("The first comment is posted.").count()).toBe(1);
      await axe(page);
      await screenshots(page, "first-comment-posted");
      expect(await page.getByRole("link", { name: "see the comment on LinkedIn" }).getAttribute("href")).toMatch(/commentUrn=urn%3Ali%3Acomment/);
    } finally {
      await browser.close();
    }
    expect(fake.comments.map((c) => c.text)).toEqual(["Slides (with notes): https://example.com/talk #daily", "Read it here: https://example.com/q3"]);
    expect(fake.count("linkedin", body)).toBe(1);
    expect(fake.badRequests).toEqual([]);
  }, 180_000);
});
