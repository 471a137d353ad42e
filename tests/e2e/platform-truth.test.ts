import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fakePlatformEnv, startFakePlatforms, type FakePlatforms } from "../helpers/fake-platforms";
import { gif, png } from "../helpers/media";
import { appInBrowser, axe, openSignedIn, press, screenshots } from "./browser";
import { TestServer } from "./harness";

// What a person meets with real-looking networks: LinkedIn and X connected in a browser on a
// built server, against fakes that hold requests to X's OpenAPI document and LinkedIn's
// documented rules; the connection checked; then an app publishes images, an animated GIF and
// a post full of reserved characters and hashtags through the API, each approved by the owner.
// Each goes out and reads as written, and no request departs from the contract.

const srv = new TestServer();
let fake: FakePlatforms;
let token = "";
const WRITER = { email: "writer@example.com", password: "correct horse battery" };

const { newPage } = appInBrowser(srv, async () => {
  fake = await startFakePlatforms();
  fake.signIn.linkedin.person = { sub: "li-member-Wendy", name: "Wendy Linked", email: WRITER.email };
  fake.signIn.x.person = { sub: "2244994945", name: "Wendy on X", username: "wendy_w" };
  delete srv.env.REDIS_URL; // sign-in counters in this server's memory
  // Engagement is read 2 seconds after publishing (then a day later), from both networks.
  Object.assign(srv.env, fakePlatformEnv(fake), { LINKEDIN_PAGES: "on", LINKEDIN_ANALYTICS: "on", METRICS_AFTER: "2s,1d" });
  // A company page the LinkedIn member administers, and one they do not.
  fake.organizations.push({ id: "5515", name: "Wendy's Studio", vanity: "wendys-studio", admins: ["li-member-Wendy"] });
  fake.organizations.push({ id: "7777", name: "Not Wendy's", vanity: "other", admins: ["li-member-Other"] });
  await srv.admin("create-user", "--email", WRITER.email, "--password", WRITER.password, "--name", "Wendy Writer", "--plan", "creator", "--allow-publishing");
  token = JSON.parse((await srv.admin("issue-token", "--email", WRITER.email, "--app", "Publishing Assistant")).stdout).access_token;
  return [fake];
});

const api = async (op: string, body: unknown) => srv.api(op, body, token);
/** A network's accounts and its buttons on Settings > Connections. */
const accountRow = (page: Page, name: string) =>
  page.locator("section[aria-labelledby=accounts] .network-accounts", { has: page.locator("h3", { hasText: new RegExp(`^${name}$`) }) });

/** The app's call, the owner's approval on its page, the app's call again. */
async function approvedCall(page: Page, op: string, body: Record<string, unknown>) {
  const first = await api(op, body);
  expect(first.body.error?.code, JSON.stringify(first.body)).toBe("confirmation_required");
  await page.goto(first.body.error.confirmation.url);
  await press(page.getByRole("button", { name: "Approve" }));
  await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Approved\./);
  return api(op, body);
}

describe("publishing to X and LinkedIn connected in a browser", () => {
  it("connects both, checks them, then an app's images, GIF and reserved characters go out as written", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/settings/connections`, WRITER.email, WRITER.password);
    for (const name of ["LinkedIn", "X"]) {
      await accountRow(page, name)
        .getByRole("button", { name: `Connect ${name}` })
        .click();
      await page.waitForURL(/\/settings\/connections$/);
      const who = name === "LinkedIn" ? "Wendy Linked" : "@wendy_w";
      await expect.poll(() => accountRow(page, name).getByRole("listitem").filter({ hasText: who }).getByText("Connected", { exact: true }).count()).toBe(1);
    }
    // The page the member administers came with the LinkedIn sign-in; the other did not.
    const pageRow = accountRow(page, "LinkedIn").getByRole("listitem").filter({ hasText: "Wendy's Studio" });
    expect(await pageRow.getByText("Company page").count()).toBe(1);
    expect(await accountRow(page, "LinkedIn").getByText("Not Wendy's").count()).toBe(0);
    expect(fake.signIn.linkedin.authorizations[0].get("scope")).toContain("w_organization_social");
    expect(fake.signIn.x.authorizations[0].get("scope")).toContain("media.write");
    await page.getByRole("button", { name: "Check connections" }).click();
    const report = page.getByRole("status", { name: "Connection check" });
    await expect.poll(() => report.getByText("Reachable").count()).toBe(2);
    expect(await report.getByText(/^Every permission publishing needs is granted/).count()).toBe(2);
    expect(await report.getByText("GET /2/users/me answered as @wendy_w").count()).toBe(1);
    await axe(page);
    await screenshots(page, "connections-checked");

    const upload = async (bytes: Buffer, content_type: string, alt_text: string) =>
      (await api("upload_media", { data: bytes.toString("base64"), content_type, alt_text })).body as { url: string };
    const photo = await upload(
      await sharp({ create: { width: 32, height: 18, channels: 3, background: "#204060" } })
        .webp()
        .toBuffer(),
      "image/webp",
      "Build times by month",
    );
    const chart = await upload(await png(24, 16), "image/png", "Deploys per week");
    const blink = await upload(await gif(), "image/gif", "A status light blinking green");
    const text = `Boring deploys (really) are a feature: [notes] {v2} <3 *no* _drama_ ~ever~ @ops | a\\b.\nhttps://example.com/a_(b)_c\n#devops #SRE`;

    const post = (await api("create_draft", { type: "post", body: text, image_urls: [photo.url] })).body;
    const tweet = (await api("create_draft", { type: "tweet", body: "Two charts, one week.", image_urls: [chart.url, photo.url] })).body;
    const gifTweet = (await api("create_draft", { type: "tweet", body: "Green again.", image_urls: [blink.url] })).body;
    for (const [type, id] of [
      ["post", post.id],
      ["tweet", tweet.id],
      ["tweet", gifTweet.id],
    ]) {
      const res = await approvedCall(page, "publish_now", { type, id });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    const [li] = fake.created.linkedin;
    expect(li.rendered).toMatchObject({ text, cut: false, hashtags: ["devops", "SRE"] });
    const liImage = fake.uploads.get((li.body.content as { media: { id: string } }).media.id)!;
    expect(liImage.contentType).toBe("image/jpeg"); // LinkedIn takes no WebP
    const [images, moving] = fake.created.x;
    const ids = (t: typeof images) => (t.body.media as { media_ids: string[] }).media_ids.map((m) => fake.uploads.get(m)!);
    expect(ids(images).map((u) => [u.category, u.altText])).toEqual([
      ["tweet_image", "Deploys per week"],
      ["tweet_image", "Build times by month"],
    ]);
    expect(ids(moving).map((u) => [u.category, u.state, u.altText])).toEqual([["tweet_gif", "ready", "A status light blinking green"]]);
    expect(fake.badRequests).toEqual([]);
    expect(fake.refusals).toEqual([]);
    await page.close();

    // The same check from the command line (with the server stopped: PGlite's files are its).
    await srv.stop();
    const cli = JSON.parse((await srv.admin("check-connections", "--email", WRITER.email)).stdout);
    await srv.start();
    expect(cli.connections.map((c: { network: string; reachable: boolean; missing: string[] }) => [c.network, c.reachable, c.missing])).toEqual([
      ["LinkedIn", true, []],
      ["X", true, []],
    ]);
  }, 300_000);

  it("an X connection granted without media.write says to reconnect, is refused images up front, and posts them once reconnected", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/settings/connections`, WRITER.email, WRITER.password);
    const x = accountRow(page, "X");
    await x.getByRole("button", { name: "Disconnect" }).click();
    await press(page.getByRole("dialog").getByRole("button", { name: "Disconnect" }));
    await page.waitForURL(/done=account-disconnected/);
    fake.signIn.x.withheld = ["media.write"]; // as connections made before it was asked for
    await x.getByRole("button", { name: "Connect X" }).click();
    const note = page.getByRole("note", { name: "X permissions" });
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toContain("Reconnect X to post images.");
    await axe(page);
    await screenshots(page, "connections-reconnect-x");

    const img = (await api("upload_media", { data: (await png(12, 12)).toString("base64"), content_type: "image/png" })).body as { url: string };
    const tweet = (await api("create_draft", { type: "tweet", body: "A chart that waits for a reconnect.", image_urls: [img.url] })).body;
    const refused = await api("schedule_content", { type: "tweet", id: tweet.id, scheduled_for: new Date(Date.now() + 20 * 60_000).toISOString() });
    expect(refused.body.error).toMatchObject({ code: "action_failed", hint: expect.stringContaining("Reconnect X") });

    fake.signIn.x.withheld = [];
    await x.getByRole("button", { name: "Reconnect X" }).click();
    // The reconnect is one navigation through X and back to this same address: its end is read
    // on a page of its own, reloaded until the stored connection has the scope (this one can
    // lose the note while it navigates, and a goto would cut that navigation short).
    const after = await page.context().newPage();
    await after.goto(`${srv.origin}/settings/connections`);
    await expect.poll(async () => (await after.reload(), await after.getByRole("note", { name: "X permissions" }).count())).toBe(0);
    const res = await approvedCall(after, "publish_now", { type: "tweet", id: tweet.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(fake.badRequests).toEqual([]);
    await page.close();
    await after.close();
  }, 300_000);

  it("the owner sets X's queue on the queue page, an app queues two tweets into the next slots, and the owner moves one", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/queue`, WRITER.email, WRITER.password);
    const queue = page.getByRole("region", { name: /^X: / });
    for (const day of ["Monday", "Wednesday", "Friday"]) {
      await queue.getByLabel("Day").selectOption({ label: day });
      await queue.getByLabel("Time").fill("09:30");
      await queue.getByRole("button", { name: "Add slot" }).click();
      await expect
        .poll(() =>
          queue
            .getByRole("list", { name: /^Slots of/ })
            .getByText(`${day} 09:30`)
            .count(),
        )
        .toBe(1);
    }
    const x = ((await api("get_profile_context", {})).body.accounts as { account_id: string; platform: string; default: boolean }[]).find(
      (a) => a.platform === "micro" && a.default,
    )!;
    const next = (await api("manage_queue", { account_id: x.account_id })).body.next_slots as string[];
    expect(next).toHaveLength(5);
    const ids: string[] = [];
    for (const body of ["Queued first.", "Queued second."]) {
      const id = (await api("create_draft", { type: "tweet", body })).body.id as string;
      const res = await approvedCall(page, "schedule_content", { type: "tweet", id, slot: "next" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids.push(id);
    }
    const at = async (id: string) => (await api("fetch_item", { type: "tweet", id })).body.scheduled_for as string;
    expect([await at(ids[0]), await at(ids[1])]).toEqual([new Date(next[0]).toISOString(), new Date(next[1]).toISOString()]);

    await page.goto(`${srv.origin}/queue`);
    const slots = queue.getByRole("list", { name: /^Next slots of/ }).getByRole("listitem");
    expect(await slots.nth(0).textContent()).toContain("Queued first.");
    expect(await slots.nth(1).textContent()).toContain("Queued second.");
    expect(await slots.nth(2).textContent()).toContain("Empty slot");
    await axe(page);
    await screenshots(page, "queue");
    // The owner moves the first tweet to the end of the queue: no approval, their own page.
    await slots.nth(0).getByRole("button", { name: "Move to the end" }).click();
    await page.waitForURL(/done=moved/);
    expect(await slots.nth(0).textContent()).toContain("Empty slot");
    expect(await slots.nth(1).textContent()).toContain("Queued second.");
    expect(await slots.nth(2).textContent()).toContain("Queued first.");
    expect(await at(ids[0])).toBe(new Date(next[2]).toISOString());
    // A post to the company page goes out as the organization, its first comment once, by it.
    const li = ((await api("get_profile_context", {})).body.accounts as { account_id: string; kind: string }[]).find((a) => a.kind === "organization")!;
    const post = (await api("create_draft", { type: "post", body: "Studio news: we moved.", account_id: li.account_id, first_comment: "New address inside." }))
      .body;
    const out = await approvedCall(page, "publish_now", { type: "post", id: post.id });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(fake.created.linkedin.find((p) => p.text === "Studio news: we moved.")?.body.author).toBe("urn:li:organization:5515");
    expect(fake.comments.filter((c) => c.object === out.body.platform_post_id)).toEqual([
      expect.objectContaining({ actor: "urn:li:organization:5515", text: "New address inside." }),
    ]);
    // The calendar shows the queue's open slots beside what is scheduled.
    await page.goto(`${srv.origin}/calendar?view=month&d=${next[3].slice(0, 10)}`);
    await expect.poll(() => page.getByRole("link", { name: /Open slot · X @wendy_w/ }).count()).toBeGreaterThan(0);
    await axe(page);
    await screenshots(page, "calendar-queue");
    await page.close();
  }, 180_000);

  it("a published tweet's engagement shows through get_post_metrics, on its page and on the analytics page, and as CSV", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/analytics`, WRITER.email, WRITER.password);
    const id = (await api("create_draft", { type: "tweet", body: "How did this one do?" })).body.id as string;
    const out = await approvedCall(page, "publish_now", { type: "tweet", id });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const counts = { impressions: 4321, likes: 87, replies: 12, reposts: 9, quotes: 4, clicks: 30 };
    fake.engagement.set(out.body.platform_post_id, counts);
    // The server's own collector reads it 2 seconds after publishing (asked each second: every call spends the app's rate limit).
    await expect
      .poll(async () => (await api("get_post_metrics", { type: "tweet", id })).body.posts?.[0]?.metrics, { timeout: 30_000, interval: 1000 })
      .toEqual(counts);
    // The company page's post (the test before) through its statistics, the member's post through Member Post Analytics.
    const answer = await api("get_post_metrics", {});
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const all = answer.body as { posts: { title: string; metrics: unknown }[] };
    expect(all.posts.find((p) => p.title.startsWith("Studio news"))?.metrics).toMatchObject({ impressions: 0, clicks: 0 });
    expect(all.posts.find((p) => p.title.startsWith("Boring deploys"))?.metrics).toMatchObject({ impressions: 0, clicks: null });

    await page.goto(`${srv.origin}/content/tweet/${id}`);
    const history = page.getByRole("region", { name: "Engagement" }).getByRole("table");
    expect(await history.getByRole("row").nth(1).textContent()).toMatch(/4,321.*87.*12.*9.*4.*30/);
    await axe(page);
    await page.goto(`${srv.origin}/analytics`);
    expect(await page.getByRole("region", { name: "Best posts" }).getByRole("link", { name: "How did this one do?" }).count()).toBe(1);
    const row = page.getByRole("region", { name: "Published posts" }).getByRole("row").filter({ hasText: "How did this one do?" });
    expect(await row.textContent()).toMatch(/X.*4,321.*87.*12.*9.*4.*30/);
    await axe(page);
    await screenshots(page, "analytics-engagement");
    const csv = await page.request.get(`${srv.origin}/analytics/post-metrics.csv`);
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("type,id,title,network,url,published_at,impressions,likes,replies,reposts,quotes,clicks,collected_at,pillar");
    expect(lines.find((l) => l.includes(id))).toMatch(/^tweet,[^,]+,How did this one do\?,X,https:\/\/x\.com\/wendy_w\/status\/\d+,[^,]+,4321,87,12,9,4,30,/);
    expect(fake.badRequests).toEqual([]);
    await page.close();
  }, 120_000);

  it("the owner writes for both networks in the composer and adds them to the queue: each takes the slot named, and the calendar shows both", async () => {
    const accounts = (await api("get_profile_context", {})).body.accounts as { account_id: string; platform: string; default: boolean }[];
    const x = accounts.find((a) => a.platform === "micro" && a.default)!;
    const li = accounts.find((a) => a.platform === "pronet" && a.default)!;
    // LinkedIn's queue, set through the API as an app would (X's was set on the queue page).
    expect((await api("manage_queue", { account_id: li.account_id, slots: [{ weekday: "tue", time: "08:00" }] })).status).toBe(200);
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, WRITER.email, WRITER.password);
    await page.getByRole("checkbox", { name: "X" }).check();
    expect(await page.getByRole("heading", { name: "X tweet" }).count()).toBe(1);
    await page.locator("#post_body").fill("Written here, queued here.");
    await page.getByRole("button", { name: "Use the post's text" }).click();
    const named = (await page.locator("#queue-slot").textContent())!;
    const next = async (a: { account_id: string }) => ((await api("manage_queue", { account_id: a.account_id })).body.next_slots as string[])[0];
    const [liNext, xNext] = [await next(li), await next(x)];
    const day = (at: string) => new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short" }).format(new Date(at));
    const [liSaid, xSaid] = named.replace(/^The queue puts it in the next free slot: |\.$/g, "").split("; ");
    expect(liSaid).toMatch(/^LinkedIn /);
    expect(liSaid).toContain(day(liNext));
    expect(xSaid).toMatch(/^X /);
    expect(xSaid).toContain(day(xNext));
    await axe(page);
    await screenshots(page, "composer-queue");
    await page.getByRole("button", { name: "Add to queue" }).click();
    await page.waitForURL(/\/content\/post\/[^/?]+\?done=queued$/);
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const post = (await api("fetch_item", { type: "post", id })).body;
    expect(post).toMatchObject({ body: "Written here, queued here.", status: "scheduled", scheduled_for: new Date(liNext).toISOString() });
    const found = (await api("search_content", { types: ["tweet"], query: "Written here" })).body.results as { id: string }[];
    expect(found).toHaveLength(1);
    const tweet = (await api("fetch_item", { type: "tweet", id: found[0].id })).body;
    expect(tweet.links.post_draft_id).toBe(id);
    expect(tweet).toMatchObject({ body: "Written here, queued here.", status: "scheduled", scheduled_for: new Date(xNext).toISOString() });
    // Each on its day of the calendar.
    for (const at of [liNext, xNext]) {
      await page.goto(`${srv.origin}/calendar?view=week&d=${at.slice(0, 10)}`);
      const cell = page.locator(`li:has(> h3 time[datetime="${at.slice(0, 10)}"])`);
      expect(await cell.getByRole("link", { name: /Written here, queued here\./ }).count()).toBeGreaterThan(0);
    }
    expect(fake.badRequests).toEqual([]);
    await page.close();
  }, 120_000);
});
