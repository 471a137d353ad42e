import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { startFakePlatforms, type FakePlatforms, fakePlatformEnv } from "../helpers/fake-platforms";
import { decodeQuotedPrintable, startSmtpCapture, type SmtpCapture } from "../helpers/smtp-capture";
import { appInBrowser, axe, forgedForm, press, screenshots } from "./browser";
import { TestServer } from "./harness";
import { png } from "../helpers/media";

// The owner's workspace in a real browser against a built server that publishes through
// the real LinkedIn and X adapters to fakes on loopback: the content list, an item's page
// and every action on it, including settling a post whose outcome is unknown.
const EMAIL = "writer@example.com";
const PASSWORD = "correct horse battery";
const ZONE = "America/New_York";
const srv = new TestServer();
let fake: FakePlatforms;
let smtp: SmtpCapture;
let token = "";

const api = async (op: string, body: unknown) => srv.api(op, body, token);

const shoot = screenshots;

let owner: Page;

const app = appInBrowser(srv, async () => {
  fake = await startFakePlatforms();
  smtp = await startSmtpCapture();
  Object.assign(srv.env, {
    SMTP_URL: smtp.url,
    ...fakePlatformEnv(fake),
    SCHEDULE_MIN_LEAD_SECONDS: "1",
    SCHEDULER_POLL_MS: "200",
  });
  await srv.admin("create-user", "--email", EMAIL, "--password", PASSWORD, "--plan", "creator", "--allow-publishing");
  const later = Math.floor(Date.now() / 1000) + 3600 * 24 * 30;
  await srv.seedAccounts(EMAIL, [
    // LinkedIn gives most apps no refresh token: this connection stops publishing in 5 days.
    {
      provider: "linkedin",
      providerAccountId: "li-member-1",
      access_token: "li-access-0",
      expires_at: Math.floor(Date.now() / 1000) + 5 * 86400,
      handle: "Writer",
    },
    { provider: "twitter", providerAccountId: "x-user-1", access_token: "x-access-0", refresh_token: "x-refresh-0", expires_at: later, handle: "@writer" },
  ]);
  token = JSON.parse((await srv.admin("issue-token", "--email", EMAIL, "--app", "Writing Assistant")).stdout).access_token;
  return [fake, smtp];
});

beforeAll(async () => {
  // Signing in without a destination lands on /content; the owner then moves to New York time.
  // An English (US) browser: its own time field would show 12-hour times.
  owner = await app.newPage({ locale: "en-US" });
  await owner.goto(`${srv.origin}/signin`);
  await owner.getByLabel("E-mail").first().fill(EMAIL); // the second one asks for a sign-in link
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign in" }).click();
  await owner.waitForURL(/\/content$/);
  await owner.goto(`${srv.origin}/onboarding`);
  await owner.getByLabel("Your name").fill("Wren Writer");
  await owner.getByLabel("Time zone").fill(ZONE); // a searchable list: typed, checked by the server
  await owner.getByLabel("Sample post 1").fill("Ship small things often.");
  await owner.getByLabel("Tone").fill("plain");
  await owner.getByRole("button", { name: "Save and finish" }).click();
  await owner.waitForURL(/\/content$/);
}, 120_000);

const created = async (type: "post" | "tweet", body: string) => {
  const r = await api("create_draft", { type, body });
  expect(r.status).toBe(200);
  return r.body.id as string;
};

describe("the owner's content list", () => {
  it("lists every draft with network, status and the app that made it; filters, search and pages", async () => {
    for (let i = 1; i <= 21; i++) await created("post", `Release note ${i}: we shipped a smaller thing today.`);
    await created("tweet", "Coffee first, then the deploy.");
    await owner.goto(`${srv.origin}/content`);
    const rows = owner.getByRole("list", { name: "Drafts" }).locator(":scope > li");
    expect(await rows.count()).toBe(20);
    const tweet = rows.filter({ hasText: "Coffee first, then the deploy." }).filter({ has: owner.locator(".badge", { hasText: /^X$/ }) });
    // The network before the title: a tweet and its post share their first words.
    expect(await tweet.textContent()).toMatch(/^X\s*Coffee first, then the deploy\..*Draft.*Created by Writing Assistant/);
    await axe(owner);
    await shoot(owner, "content");

    await owner.getByRole("link", { name: "Next page" }).click();
    await expect.poll(() => rows.count()).toBe(3); // 21 posts, one tweet and its post: 23
    expect(await owner.getByRole("link", { name: "Next page" }).count()).toBe(0);
    await owner.getByRole("link", { name: "First page" }).click();
    await expect.poll(() => rows.count()).toBe(20);

    // Network filter (applied as soon as it changes: no button while scripts run), then the
    // same full-text search as search_content (stemming: "deploys").
    await expect.poll(() => owner.getByRole("button", { name: "Apply" }).isVisible()).toBe(false); // once the page's script runs
    await owner.getByLabel("Network").selectOption("tweet");
    await owner.waitForURL(/network=tweet/);
    await expect.poll(() => rows.count()).toBe(1);
    await owner.getByLabel("Network").selectOption("");
    await owner.waitForURL((u) => !u.search.includes("network="));
    await owner.getByLabel("Search").fill("deploys");
    await owner.getByLabel("Search").press("Enter"); // keyboard alone
    await expect.poll(() => rows.count()).toBe(2); // the tweet and the post made for it
    await owner.getByLabel("Search").fill("nothing-like-this");
    await owner.getByLabel("Search").press("Enter");
    await expect.poll(() => owner.getByText("Nothing matches “nothing-like-this”.").count()).toBe(1);
    await owner.getByRole("link", { name: "Clear search" }).click();
    await owner.waitForURL(`${srv.origin}/content`);
    await expect.poll(() => rows.count()).toBe(20);
    expect(await owner.getByLabel("Search").inputValue()).toBe("");
  }, 120_000);

  it("shows a Needs attention banner on every page while an app waits for approval", async () => {
    const id = await created("post", "Please approve me.");
    const asked = await api("schedule_content", { type: "post", id, scheduled_for: new Date(Date.now() + 86400_000).toISOString() });
    expect(asked.body.error.code).toBe("confirmation_required");
    for (const path of ["/content", "/settings/connections"]) {
      await owner.goto(`${srv.origin}${path}`);
      await expect.poll(() => owner.getByRole("complementary", { name: "Needs attention" }).textContent()).toContain("1 request waiting for your approval");
    }
    // Only a request waits: the banner's one link leads to the approvals inbox (approvals-inbox.test.ts).
    const banner = owner.getByRole("complementary", { name: "Needs attention" });
    expect(await banner.getByRole("link", { name: "Review them" }).count()).toBe(0);
    await banner.getByRole("link", { name: "Review requests" }).click();
    await owner.waitForURL(/\/approvals$/);
    await owner.goto(`${srv.origin}/content?status=attention`);
    const rows = owner.getByRole("list", { name: "Drafts" }).locator(":scope > li");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Waiting for your approval");
    await axe(owner);
    await owner.getByRole("link", { name: "Please approve me." }).click();
    await owner.getByRole("link", { name: "Review the request" }).click();
    await owner.waitForURL(/\/confirm\//);
    await owner.getByRole("button", { name: "Deny" }).click();
    // The decision is recorded once the page says so; leaving before that could cancel it.
    await expect.poll(() => owner.getByRole("status").textContent()).toMatch(/^Denied\./);
    await owner.goto(`${srv.origin}/content`);
    expect(await owner.getByRole("complementary", { name: "Needs attention" }).count()).toBe(0);
  }, 120_000);
});

describe("the lists at a glance", () => {
  it("counts each tab, marks threads and images, keeps a text's line breaks", async () => {
    const up = await api("upload_media", { data: (await png(64, 48)).toString("base64"), content_type: "image/png" });
    expect(up.status).toBe(200);
    await created("post", "Zebra crossings, first line.\nSecond line of the zebra post.\n\nA last paragraph.");
    const thread = await api("create_draft", { type: "tweet", body: "Zebra thread, part one.", thread: ["Part two.", "Part three."] });
    expect(thread.status).toBe(200);
    const pictured = await api("create_draft", { type: "post", body: "A zebra in a picture.", image_url: up.body.url });
    expect(pictured.status).toBe(200);

    await owner.goto(`${srv.origin}/content?q=zebra`);
    const rows = owner.getByRole("list", { name: "Drafts" }).locator(":scope > li");
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    // Each tab's number is what that tab lists (the search stays on while moving between tabs).
    const tabs = owner.getByRole("navigation", { name: "Filter by status" }).getByRole("link");
    const names = ["All", "Drafts", "Scheduled", "Published", "Needs attention"];
    for (const name of names) {
      const tab = tabs.filter({ hasText: new RegExp(`^${name}`) });
      const shown = Number((await tab.locator(".count").textContent())?.trim());
      await tab.click();
      await owner.waitForURL(/q=zebra/);
      await expect.poll(() => tabs.filter({ hasText: new RegExp(`^${name}`) }).getAttribute("aria-current")).toBe("page");
      expect([name, await rows.count()]).toEqual([name, shown]);
    }
    await tabs.filter({ hasText: /^All/ }).click();
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);

    const threadRow = rows.filter({ hasText: "Zebra thread, part one." }).filter({ has: owner.locator(".badge", { hasText: /^X$/ }) });
    expect(await threadRow.locator(".badge.thread").textContent()).toBe("Thread · 3 parts");
    const pictureRow = rows.filter({ hasText: "A zebra in a picture." });
    const thumb = pictureRow.locator("img.thumb");
    await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(64);
    expect(await pictureRow.locator(".badge", { hasText: /^Image$/ }).count()).toBe(1);
    expect(await rows.filter({ hasText: "Zebra crossings" }).locator("img").count()).toBe(0);
    // The snippet keeps the text's own lines.
    const snippet = rows.filter({ hasText: "Zebra crossings" }).locator(".snippet");
    expect(await snippet.innerText()).toBe("Zebra crossings, first line.\nSecond line of the zebra post.\n\nA last paragraph.");
    expect(await snippet.evaluate((e) => getComputedStyle(e).whiteSpace)).toBe("pre-line");
    await axe(owner);
    await shoot(owner, "content-glance");

    // The queue page marks a queued thread too.
    await owner.goto(`${srv.origin}/queue`);
    await axe(owner);
  }, 120_000);

  it("folds the navigation behind Menu on a phone, opened with the keyboard; a desktop shows it all", async () => {
    const nav = owner.getByRole("navigation", { name: "Account" });
    const queue = nav.getByRole("link", { name: "Queue", exact: true });
    const menu = nav.locator("summary", { hasText: "Menu" });
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.goto(`${srv.origin}/content`);
    expect(await queue.isVisible()).toBe(false);
    expect(await nav.getByRole("button", { name: "Sign out" }).isVisible()).toBe(false);
    expect(await nav.getByRole("link", { name: "Write", exact: true }).isVisible()).toBe(true); // the main action stays
    expect(await menu.isVisible()).toBe(true);
    await menu.focus();
    await owner.keyboard.press("Enter");
    await expect.poll(() => queue.isVisible()).toBe(true);
    expect(await nav.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    await axe(owner);
    if (process.env.SCREENSHOT_DIR) await owner.screenshot({ path: `${process.env.SCREENSHOT_DIR}/menu-open-phone.png` });
    await owner.keyboard.press("Tab"); // into the menu: its first link
    expect(await owner.evaluate(() => document.activeElement?.textContent)).toBe("Content");
    await menu.focus();
    await owner.keyboard.press("Space");
    await expect.poll(() => queue.isVisible()).toBe(false);

    await owner.setViewportSize({ width: 1280, height: 900 });
    await owner.reload();
    expect(await queue.isVisible()).toBe(true);
    expect(await menu.isVisible()).toBe(false);
    expect(await nav.getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
  }, 120_000);
});

const status = async (type: "post" | "tweet", id: string) =>
  (await api("fetch_item", { type, id })).body as { status: string; body: string; scheduled_for: string | null };
const open = async (type: "post" | "tweet", id: string) => {
  await owner.goto(`${srv.origin}/content/${type}/${id}`);
  await owner.getByRole("heading", { level: 1 }).waitFor();
};
/** The page's own result message (the month grid's caption is a live region too). */
const said = () => owner.locator("p.ok-box[role=status]");

/** Picks a day in the schedule's month grid (DayPicker), moving to later months as needed. */
async function pickDate(ymd: string) {
  const day = owner.locator(`[data-day="${ymd}"]:not([data-outside]) button`);
  for (let i = 0; i < 3 && !(await day.count()); i++) await owner.getByRole("button", { name: /next month/i }).click();
  await day.click();
}

/** The dialog's own button does it; the page's button only asks. */
async function confirmIn(label: string, confirmLabel: string) {
  await owner.getByRole("button", { name: label, exact: true }).click();
  const dialog = owner.getByRole("dialog");
  await dialog.waitFor();
  await press(dialog.getByRole("button", { name: confirmLabel, exact: true }));
}

describe("an item's page", () => {
  it("previews as LinkedIn shows it, schedules in the owner's zone, edits while scheduled, unschedules and publishes", async () => {
    const text = "Five lessons from a year of shipping daily.\n\n1. Small beats big.\n2. Boring is good.\n3. Write it down.\n4. Ask early.\n5. Rest.";
    const id = await created("post", text);
    await open("post", id);
    const preview = owner.getByRole("figure", { name: "Preview as LinkedIn shows it" });
    expect(await preview.textContent()).not.toContain("3. Write it down."); // folded after three lines
    // LinkedIn is set up here: the page names it, and no sandbox.
    expect(await owner.locator(".meta .badge").first().textContent()).toBe("LinkedIn");
    expect(await owner.getByRole("note", { name: "Sandbox mode" }).count()).toBe(0);
    await axe(owner);
    await shoot(owner, "item");
    await preview.getByRole("button", { name: "…see more" }).click();
    await expect.poll(() => preview.textContent()).toContain("5. Rest.");

    // Tomorrow 10:30 in New York, picked in the month grid and typed in the time field.
    const tomorrow = new Date(Date.now() + 86400_000).toLocaleDateString("en-CA", { timeZone: ZONE });
    await pickDate(tomorrow);
    await owner.getByLabel("Time").fill("10:30");
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => said().textContent()).toBe("Scheduled.");
    expect(await owner.locator(".meta").first().textContent()).toMatch(/Scheduled\s*for .*10:30 GMT-[45]/);
    const s1 = await status("post", id);
    expect(s1.status).toBe("scheduled");
    expect([14, 15]).toContain(new Date(s1.scheduled_for!).getUTCHours()); // 10:30 New York is 15:30 or 14:30 UTC
    expect(new Date(s1.scheduled_for!).getUTCMinutes()).toBe(30);

    // Editing a scheduled draft from its page: the page is the confirmation, no approval link.
    await owner.getByLabel("Text").fill("Four lessons from a year of shipping daily.");
    await owner.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => said().textContent()).toBe("Saved.");
    const s2 = await status("post", id);
    expect(s2).toMatchObject({ status: "scheduled", body: "Four lessons from a year of shipping daily.", scheduled_for: s1.scheduled_for });
    // The page's form is checked as an app's update_draft is: over LinkedIn's 3,000 it saves nothing.
    await owner.getByLabel("Text").fill("x".repeat(3001));
    await owner.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => owner.getByRole("alert").first().textContent()).toMatch(/3000/);
    expect((await status("post", id)).body).toBe("Four lessons from a year of shipping daily.");
    await owner.getByLabel("Text").fill("Four lessons from a year of shipping daily.");

    // Times are 24-hour on every page, the time field's too, whatever the browser's language.
    await owner.getByLabel("Time").fill("11:45 AM");
    expect(await owner.getByLabel("Time").evaluate((e: HTMLInputElement) => e.validity.patternMismatch)).toBe(true);
    await owner.getByLabel("Time").fill("11:45");
    await owner.getByRole("button", { name: "Reschedule", exact: true }).click();
    await expect.poll(() => said().textContent()).toBe("Rescheduled.");
    expect(new Date((await status("post", id)).scheduled_for!).getTime() - new Date(s1.scheduled_for!).getTime()).toBe(75 * 60_000);
    await owner.getByRole("button", { name: "Unschedule" }).click();
    await expect.poll(() => said().textContent()).toMatch(/^Unscheduled/);
    expect((await status("post", id)).status).toBe("draft");

    await owner.getByRole("button", { name: "Publish now", exact: true }).click();
    expect(await owner.getByRole("dialog").textContent()).toContain("Publish this post to LinkedIn (Writer) now? It cannot be undone.");
    await shoot(owner, "item-dialog");
    await press(owner.getByRole("dialog").getByRole("button", { name: "Publish now", exact: true }));
    await expect.poll(() => said().textContent()).toBe("Published.");
    expect(fake.count("linkedin", "Four lessons from a year of shipping daily.")).toBe(1);
    expect(await owner.getByRole("link", { name: "see it on LinkedIn" }).getAttribute("href")).toMatch(/^https:\/\/www\.linkedin\.com\//);
    const history = await owner.getByRole("list").filter({ hasText: "Created by Writing Assistant" }).textContent();
    for (const step of ["Created by Writing Assistant", "Scheduled by you for", "Edited by you", "Unscheduled by you", "Publish attempt: published"])
      expect(history).toContain(step);
    expect(await owner.getByRole("button", { name: "Publish now" }).count()).toBe(0); // never twice
    await axe(owner);
    await shoot(owner, "item-published");
  }, 120_000);

  it("publishes only the text the page showed: after an app's edit it refuses until the owner reloads", async () => {
    const id = await created("post", "What the owner read on the page.");
    await open("post", id);
    // An app changes the draft while the page is open.
    expect((await api("update_draft", { type: "post", id, body: "What the app slipped in afterwards." })).status).toBe(200);
    await confirmIn("Publish now", "Publish now");
    const alert = owner.locator("p.error-box[role=alert]");
    await expect.poll(() => alert.textContent()).toMatch(/changed after the page showed it.*nothing was done.*Reload the page/);
    await shoot(owner, "item-changed-since-shown");
    expect(fake.count("linkedin", "What the app slipped in afterwards.")).toBe(0);
    expect((await status("post", id)).status).toBe("draft");
    // Reloaded, the page shows the app's text, and that is what the owner publishes.
    await open("post", id);
    expect(await owner.getByLabel("Text").inputValue()).toBe("What the app slipped in afterwards.");
    await confirmIn("Publish now", "Publish now");
    await expect.poll(() => said().textContent()).toBe("Published.");
    expect(fake.count("linkedin", "What the app slipped in afterwards.")).toBe(1);
  }, 120_000);

  it("schedules the text typed into the editor, not the text saved before, and the post goes out with it", async () => {
    const id = await created("post", "The text an app wrote first.");
    await open("post", id);
    const typed = "The owner's own words, typed and scheduled at once.";
    await owner.getByLabel("Text").fill(typed);
    // The next whole minute far enough ahead, so the scheduler posts it while the test waits.
    const at = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
    await pickDate(at.toLocaleDateString("en-CA", { timeZone: ZONE }));
    await owner.getByLabel("Time").fill(at.toLocaleTimeString("en-GB", { timeZone: ZONE, hour: "2-digit", minute: "2-digit" }));
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => said().count()).toBe(1);
    expect(await status("post", id)).toMatchObject({ status: "scheduled", body: typed, scheduled_for: at.toISOString() });
    expect(await said().textContent()).toBe("Saved and scheduled.");
    expect(await owner.getByLabel("Text").inputValue()).toBe(typed);
    // What the owner typed is what they approved: the scheduler posts it, and nothing else.
    await expect.poll(() => fake.count("linkedin", typed), { timeout: 100_000, interval: 1000 }).toBe(1);
    expect(fake.count("linkedin", "The text an app wrote first.")).toBe(0);
    await expect.poll(async () => (await status("post", id)).status).toBe("published");
  }, 150_000);

  it("publishes now the text typed into the editor", async () => {
    const id = await created("post", "Yesterday's wording.");
    await open("post", id);
    await owner.getByLabel("Text").fill("Today's wording, typed and published at once.");
    await confirmIn("Publish now", "Publish now");
    await expect.poll(() => said().count()).toBe(1);
    expect(fake.count("linkedin", "Yesterday's wording.")).toBe(0);
    expect(fake.count("linkedin", "Today's wording, typed and published at once.")).toBe(1);
    expect(await status("post", id)).toMatchObject({ status: "published", body: "Today's wording, typed and published at once." });
    // Saved by the button, or already by the autosave when the dialog took longer than its pause.
    expect(["Saved and published.", "Published."]).toContain(await said().textContent());
  }, 120_000);

  it("keeps typed text that cannot be scheduled on the page, and asks before leaving it unsaved", async () => {
    const id = await created("post", "Saved words.");
    await open("post", id);
    // Over LinkedIn's 3,000: refused as the Save form refuses it; nothing saved or scheduled.
    const long = "y".repeat(3001);
    await owner.getByLabel("Text").fill(long);
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => owner.locator("p.error-box[role=alert]").first().textContent()).toMatch(/3000/);
    expect(await status("post", id)).toMatchObject({ status: "draft", body: "Saved words." });
    expect(await owner.getByLabel("Text").inputValue()).toBe(long);

    // Leaving asks first (a link of the navigation or of the page, a reload); staying keeps the text.
    const asked: string[] = [];
    owner.on("dialog", (d) => {
      asked.push(d.type());
      void d.dismiss();
    });
    await owner.getByRole("link", { name: "Calendar" }).click();
    await owner.getByRole("link", { name: "← All content" }).click();
    await owner.evaluate(() => location.reload());
    await expect.poll(() => asked).toEqual(["confirm", "confirm", "beforeunload"]);
    owner.removeAllListeners("dialog");
    expect(owner.url()).toBe(`${srv.origin}/content/post/${id}`);
    expect(await owner.getByLabel("Text").inputValue()).toBe(long);

    // A valid text with a time already past: the text saves itself as the owner pauses (an
    // unscheduled draft), the schedule is refused, and the page, now showing the saved text,
    // schedules it at a valid time.
    await owner.getByLabel("Text").fill("Words worth keeping.");
    await pickDate(new Date().toLocaleDateString("en-CA", { timeZone: ZONE }));
    await owner.getByLabel("Time").fill("00:00");
    await expect.poll(() => owner.getByText(/^Saved automatically at/).count(), { timeout: 15_000 }).toBe(1);
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    // Nothing left to save: the refusal is the schedule's alone.
    await expect.poll(() => owner.locator("p.error-box[role=alert]").first().textContent()).toMatch(/^(?!Your text was saved).*future/);
    expect(await status("post", id)).toMatchObject({ status: "draft", body: "Words worth keeping." });
    expect(await owner.getByLabel("Text").inputValue()).toBe("Words worth keeping.");
    await pickDate(new Date(Date.now() + 2 * 86400_000).toLocaleDateString("en-CA", { timeZone: ZONE }));
    await owner.getByLabel("Time").fill("09:00");
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => said().textContent()).toBe("Scheduled.");
    expect(await owner.locator("p.error-box[role=alert]").count()).toBe(0);
    expect(await status("post", id)).toMatchObject({ status: "scheduled", body: "Words worth keeping." });
    // Saved, the page lets the owner go without asking.
    await owner.getByRole("link", { name: "← All content" }).click();
    await owner.waitForURL(/\/content$/);
  }, 120_000);

  it("shows X's weighted count, and deletes only after the dialog", async () => {
    const id = await created("tweet", "日本語で書く。 https://example.com/a/very/long/link/that/counts/as/twenty-three");
    await open("tweet", id);
    const preview = owner.getByRole("figure", { name: "Preview as X shows it" });
    expect(await preview.textContent()).toContain("38 / 280 characters as X counts them"); // 7 wide characters x2, a space, the URL 23
    const chart = (await api("upload_media", { data: (await png(40, 30)).toString("base64"), content_type: "image/png", alt_text: "A rising chart" })).body.url;
    const pictured = await api("create_draft", {
      type: "tweet",
      body: "With a picture.",
      image_url: chart,
      thread: [{ text: "Part two.", image_urls: [chart] }],
    });
    expect(pictured.status).toBe(200);
    await open("tweet", pictured.body.id);
    // The preview and the read-only list of images and thread parts, each image with its alt text.
    expect(await owner.getByRole("figure", { name: "Preview as X shows it" }).getByRole("img", { name: "A rising chart" }).getAttribute("src")).toBe(
      new URL(chart).pathname,
    );
    const media = owner.getByRole("region", { name: "Images and thread" });
    expect(await media.getByRole("img", { name: "A rising chart" }).count()).toBe(2);
    expect(await media.getByText("Posted with the description: “A rising chart”").count()).toBe(2);
    expect(await media.getByRole("listitem", { name: "Part 2 of 2" }).textContent()).toContain("Part two.");
    await axe(owner);
    await open("tweet", id);
    await owner.getByRole("button", { name: "Delete draft" }).click();
    await owner.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect((await status("tweet", id)).status).toBe("draft");
    await confirmIn("Delete draft", "Delete");
    await owner.waitForURL(/\/content\?done=deleted$/);
    expect((await api("fetch_item", { type: "tweet", id })).status).toBe(422);
  }, 120_000);

  it("settles a post whose outcome is unknown: it went out (with its link), or it did not and is published again", async () => {
    const went = await created("tweet", "Maybe posted, number one.");
    const not = await created("tweet", "Maybe posted, number two.");
    for (const id of [went, not]) {
      fake.misbehave("x", "reset");
      await open("tweet", id);
      await confirmIn("Publish now", "Publish now");
      await expect.poll(() => owner.getByRole("alert").first().textContent()).toContain("The platform did not confirm the post.");
      expect((await status("tweet", id)).status).toBe("unknown");
    }
    await expect.poll(() => owner.getByRole("complementary", { name: "Needs attention" }).textContent()).toContain("2 not confirmed by the platform");
    await axe(owner);
    await shoot(owner, "item-unknown");

    await open("tweet", went);
    await owner.getByLabel("Link to the tweet on X").fill("javascript:alert(1)");
    await owner.getByRole("button", { name: "It went out" }).click();
    await expect.poll(() => owner.getByRole("alert").first().textContent()).toContain("Paste the full link of the post");
    await owner.getByLabel("Link to the tweet on X").fill("https://x.com/writer/status/777");
    await owner.getByRole("button", { name: "It went out" }).click();
    await expect.poll(() => said().textContent()).toBe("Marked as published with the link you gave.");
    expect(await owner.getByRole("link", { name: "see it on X" }).getAttribute("href")).toBe("https://x.com/writer/status/777");
    expect((await status("tweet", went)).status).toBe("published");

    await open("tweet", not);
    await owner.getByRole("button", { name: "It did not go out" }).click();
    await expect.poll(() => said().textContent()).toMatch(/^Marked as failed/);
    expect((await status("tweet", not)).status).toBe("failed");
    await confirmIn("Publish now", "Publish now");
    await expect.poll(() => said().textContent()).toBe("Published.");
    expect(fake.count("x", "Maybe posted, number two.")).toBe(2); // the lost one and the new one
    const history = await owner.getByRole("list").filter({ hasText: "You confirmed it did not go out" }).textContent();
    expect(history).toMatch(/outcome unknown.*You confirmed it did not go out.*Publish attempt: published/s);
    expect(await owner.getByRole("complementary", { name: "Needs attention" }).count()).toBe(0);
  }, 120_000);
});

describe("the calendar", () => {
  it("shows scheduled and published items by day in the owner's zone, each linking to its page; today marked, empty days visible", async () => {
    const id = await created("post", "Calendar entry for tomorrow.");
    const tomorrow = new Date(Date.now() + 86400_000).toLocaleDateString("en-CA", { timeZone: ZONE });
    const today = new Date().toLocaleDateString("en-CA", { timeZone: ZONE });
    await open("post", id);
    await pickDate(tomorrow);
    await owner.getByLabel("Time").fill("08:15");
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => said().textContent()).toBe("Scheduled.");

    await owner.goto(`${srv.origin}/calendar`);
    const todayCell = owner.locator('li[aria-current="date"]');
    expect(await todayCell.locator("time").getAttribute("datetime")).toBe(today);
    expect(await todayCell.textContent()).toContain("Today");
    expect(await todayCell.textContent()).toContain("Five lessons from a year of shipping daily."); // published today
    // Empty days are blank, and each day from today on offers to write for it.
    expect(await owner.getByText("Nothing", { exact: true }).count()).toBe(0);
    await todayCell.getByRole("link", { name: /^Write for / }).click();
    await owner.waitForURL(`${srv.origin}/write?d=${today}`);
    await owner.goto(`${srv.origin}/calendar`);
    await axe(owner);
    await shoot(owner, "calendar-month");

    for (const view of ["month", "week"]) {
      await owner.goto(`${srv.origin}/calendar?view=${view}&d=${tomorrow}`);
      const cell = owner.locator(`li:has(> h3 time[datetime="${tomorrow}"])`);
      const entry = cell.getByRole("link", { name: /Calendar entry for tomorrow\./ });
      expect(await entry.textContent()).toMatch(/^08:15 Calendar entry for tomorrow\. · LinkedIn/);
      // LinkedIn's colour, with its name beside it: the colour is never the only cue.
      expect(await entry.locator("xpath=..").getAttribute("class")).toContain("net-linkedin");
      expect(await entry.locator(".net").evaluate((e) => [e.textContent, getComputedStyle(e).backgroundColor])).toEqual(["LinkedIn", "rgb(10, 102, 194)"]);
      if (view === "week") {
        expect(await owner.locator(".cal-days > li").count()).toBe(7);
        await axe(owner);
        await shoot(owner, "calendar-week");
        await entry.click();
        await owner.waitForURL(`${srv.origin}/content/post/${id}`);
      }
    }
    // A day whose view would reach past year 9999 shows this month instead of failing.
    const far = await owner.goto(`${srv.origin}/calendar?view=month&d=9999-12-31`);
    expect(far?.status()).toBe(200);
    expect(await owner.getByText("Today").count()).toBeGreaterThan(0);
  }, 120_000);
});

describe("rescheduling on the calendar", () => {
  // Days in the owner's zone; next week's Tuesday to Thursday share one week view, all ahead.
  const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toLocaleDateString("en-CA", { timeZone: ZONE });
  const weekdayOf = (ymd: string) => (new Date(`${ymd}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const plus = (ymd: string, n: number) => new Date(Date.parse(`${ymd}T12:00:00Z`) + n * 86400_000).toISOString().slice(0, 10);
  const today = () => day(0);
  const tuesday = () => plus(today(), 7 - weekdayOf(today()) + 1);
  const dayCell = (ymd: string) => owner.locator(`.cal-days > li[data-day="${ymd}"]`);
  const inZone = (iso: string) => new Date(iso).toLocaleString("sv-SE", { timeZone: ZONE }).slice(0, 16);

  it("drags a scheduled tweet to another day: it keeps its time of day", async () => {
    const id = await created("tweet", "Drag me to Wednesday.");
    await open("tweet", id);
    await pickDate(tuesday());
    await owner.getByLabel("Time").fill("07:40");
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => said().textContent()).toBe("Scheduled.");

    await owner.goto(`${srv.origin}/calendar?view=week&d=${tuesday()}`);
    const item = dayCell(tuesday()).locator(".cal-item", { hasText: "Drag me to Wednesday." });
    expect(await item.getAttribute("class")).toContain("net-x");
    expect(await item.locator(".net").textContent()).toBe("X");
    // One line, cut with an ellipsis.
    expect(await item.evaluate((e) => [getComputedStyle(e).whiteSpace, getComputedStyle(e).textOverflow])).toEqual(["nowrap", "ellipsis"]);
    await item.dragTo(dayCell(plus(tuesday(), 1)));
    await owner.waitForURL(/done=moved/);
    const moved = await status("tweet", id);
    expect([moved.status, inZone(moved.scheduled_for!)]).toEqual(["scheduled", `${plus(tuesday(), 1)} 07:40`]);
    expect(
      await dayCell(plus(tuesday(), 1))
        .getByRole("link", { name: /Drag me to Wednesday\./ })
        .textContent(),
    ).toMatch(/^07:40 Drag me to Wednesday\. · X/);
    await axe(owner);
    await shoot(owner, "calendar-week-moved");
  }, 120_000);

  /** The owner reads an app's draft on its page and saves it as it is: from now on the calendar may move it. */
  const readAndSave = async (type: "post" | "tweet", id: string) => {
    await open(type, id);
    await owner.getByRole("button", { name: "Save changes" }).click();
    await owner.waitForURL(/done=saved/);
  };

  it("drags an unscheduled draft from beside the calendar onto a day, refuses a past day, and schedules without dragging", async () => {
    const id = await created("tweet", "Not scheduled yet, then Thursday.");
    await owner.goto(`${srv.origin}/calendar?view=week&d=${tuesday()}`);
    const side = owner.getByRole("complementary", { name: "Not scheduled yet" });
    // A tweet made alone gets a matching post too: each is a row of its own.
    const tweetIn = (text: string) => side.locator(".cal-item", { hasText: text }).filter({ has: owner.locator(".net", { hasText: /^X$/ }) });
    // The row's title: what is dragged (a draft not yet read has a second link, to read it).
    const title = (text: string) => tweetIn(text).getByRole("link", { name: text });
    // An app wrote it and the calendar shows only its title: a drop opens it rather than schedule text the owner has not read.
    expect(await tweetIn("Not scheduled yet, then Thursday.").getByRole("button", { name: "Schedule" }).count()).toBe(0);
    await title("Not scheduled yet, then Thursday.").dragTo(dayCell(plus(tuesday(), 2)));
    await owner.waitForURL(/done=review-first/);
    expect(await said().textContent()).toMatch(/An app wrote or changed this since you last saw it in full/);
    expect((await status("tweet", id)).status).toBe("draft");
    // The drop's own form sent without the page's script (a replay): it schedules nothing either.
    const drop = await forgedForm(owner, `${srv.origin}/calendar?view=week&d=${tuesday()}`, 'class="cal-drop"');
    for (const shown of [undefined, "", "0".repeat(64)])
      await drop.post({ type: "tweet", id, day: plus(tuesday(), 2), shown }, { csrf: drop.csrf, origin: srv.origin });
    expect((await status("tweet", id)).status).toBe("draft");
    await readAndSave("tweet", id);
    await owner.goto(`${srv.origin}/calendar?view=week&d=${tuesday()}`);
    await title("Not scheduled yet, then Thursday.").dragTo(dayCell(plus(tuesday(), 2)));
    await owner.waitForURL(/done=scheduled/);
    const s = await status("tweet", id);
    expect([s.status, inZone(s.scheduled_for!)]).toEqual(["scheduled", `${plus(tuesday(), 2)} 09:00`]); // no queue slot that day: 09:00
    expect(await tweetIn("Not scheduled yet, then Thursday.").count()).toBe(0);

    // A past day is refused, and says so.
    const late = await created("tweet", "Too late for yesterday.");
    await readAndSave("tweet", late);
    await owner.goto(`${srv.origin}/calendar?view=week&d=${day(-1)}`);
    await title("Too late for yesterday.").dragTo(dayCell(day(-1)));
    await expect.poll(() => owner.getByRole("alert").filter({ hasText: "That day has passed" }).count()).toBe(1);
    expect((await status("tweet", late)).status).toBe("draft");

    // Without dragging (keyboard alone, or no JavaScript): the draft's own day field and Schedule.
    const row = tweetIn("Too late for yesterday.");
    await row.getByText("Choose a day").click();
    await row.getByLabel("Day").fill(plus(tuesday(), 1));
    await row.getByRole("button", { name: "Schedule" }).click();
    await owner.waitForURL(/done=scheduled/);
    expect(inZone((await status("tweet", late)).scheduled_for!)).toBe(`${plus(tuesday(), 1)} 09:00`);
    await axe(owner);
    await shoot(owner, "calendar-side");
  }, 120_000);
});

describe("account health", () => {
  it("shows each connection's expiry, warns 7 days ahead with a reconnect button, and refuses a schedule past it", async () => {
    await owner.goto(`${srv.origin}/settings/connections`);
    const li = owner.locator("li", { hasText: "Access expires" }).filter({ hasText: "LinkedIn" });
    expect(await li.textContent()).toContain("cannot renew itself: reconnect LinkedIn before then");
    const warning = owner.getByRole("note", { name: "LinkedIn connection expiring" });
    expect(await warning.textContent()).toMatch(/LinkedIn can publish only until .*Reconnect LinkedIn to keep publishing/);
    expect(await owner.getByRole("button", { name: "Reconnect LinkedIn" }).count()).toBe(1);
    expect(await owner.locator("li", { hasText: "@writer" }).textContent()).toContain("renews itself");
    expect(await owner.getByRole("button", { name: "Reconnect X" }).count()).toBe(0);
    await axe(owner);
    await shoot(owner, "connections-health");

    const id = await created("post", "Too far ahead for this connection.");
    await open("post", id);
    // Six days ahead with the keyboard alone: the grid starts on tomorrow; arrows move, Enter picks.
    const sixDays = new Date(Date.now() + 6 * 86400_000).toLocaleDateString("en-CA", { timeZone: ZONE });
    await owner.locator("[data-selected] button").focus();
    for (let i = 0; i < 5; i++) await owner.keyboard.press("ArrowRight");
    await owner.keyboard.press("Enter");
    expect(await owner.locator("[data-selected]").getAttribute("data-day")).toBe(sixDays);
    await owner.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect
      .poll(() => owner.getByRole("alert").first().textContent())
      .toMatch(/The LinkedIn connection can publish only until .*reconnect LinkedIn in Settings > Connections/);
    expect((await status("post", id)).status).toBe("draft");
  }, 120_000);
});

describe("analytics", () => {
  it("draws get_analytics' figures as charts, each with its numbers as text", async () => {
    const id = await created("post", "A post about hiring.");
    expect((await api("update_draft", { type: "post", id, pillar: "Hiring" })).status).toBe(200);
    const figures = (await api("get_analytics", { area: "overview" })).body;
    await owner.goto(`${srv.origin}/analytics`);
    await owner.locator(".chart svg").first().waitFor();
    expect(await owner.locator(".chart svg").count()).toBe(4);
    const table = (name: string) => owner.getByRole("table", { name });
    const cell = async (name: string, row: string) =>
      (
        await table(name)
          .getByRole("row", { name: new RegExp(`^${row}`) })
          .getByRole("cell")
          .textContent()
      )?.trim();
    for (const [row, key] of [
      ["Ideas", "ideas"],
      ["Drafts", "drafts"],
      ["Scheduled", "scheduled"],
      ["Published", "published"],
    ] as const) {
      expect(await cell("Pipeline", row)).toBe(String(figures.pipeline[key]));
    }
    expect(await cell("Content pillars", "Hiring")).toBe("1 (100%)");
    expect(await cell("AI credits: this week against last", "This week")).toBe(String(figures.credits.this_week_total));
    expect(await table("Activity by day").getByRole("row").count()).toBe(8); // a header and 7 days
    expect(await owner.getByText(`${figures.activity.last_7_days_total} items created in the last 7 days.`).count()).toBe(1);
    await axe(owner);
    await shoot(owner, "analytics");
  }, 120_000);
});

describe("e-mail notifications", () => {
  const mails = () => smtp.mails.map((m) => decodeQuotedPrintable(m.raw));
  const count = (needle: string) => mails().filter((m) => m.includes(needle)).length;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("e-mails the owner once per event, and not the kinds the owner turned off", async () => {
    // The LinkedIn connection expires in 5 days and cannot renew itself.
    await expect.poll(() => count("Reconnect LinkedIn in Settings > Connections"), { timeout: 15_000 }).toBe(1);
    expect(smtp.mails[0].to).toEqual([EMAIL]);

    fake.misbehave("linkedin", "duplicate");
    const id = await created("post", "This one LinkedIn refuses.");
    await open("post", id);
    await confirmIn("Publish now", "Publish now");
    await expect.poll(() => owner.getByRole("alert").first().textContent()).toContain("Publishing failed");
    await expect.poll(() => count(`/content/post/${id}`), { timeout: 15_000 }).toBe(1);
    expect(mails().find((m) => m.includes(`/content/post/${id}`))).toContain("was not published to LinkedIn");

    // The owner turns approval requests off; an app asks; no e-mail.
    await owner.goto(`${srv.origin}/settings/connections`);
    const box = owner.getByRole("checkbox", { name: "An app asks for your approval (with the link)" });
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await owner.getByRole("button", { name: "Save e-mail settings" }).click();
    await expect.poll(() => said().textContent()).toBe("E-mail settings saved.");
    expect(await owner.getByRole("checkbox", { name: "An app asks for your approval (with the link)" }).isChecked()).toBe(false);
    await axe(owner);
    const asking = await created("post", "Approve me by e-mail.");
    const ask = (await api("delete_draft", { type: "post", id: asking })).body.error.confirmation;
    await pause(6000); // longer than a sweep's interval
    expect(count(ask.url)).toBe(0);
    // Turned back on, the request still waiting is e-mailed, with its link.
    await owner.getByRole("checkbox", { name: "An app asks for your approval (with the link)" }).check();
    await owner.getByRole("button", { name: "Save e-mail settings" }).click();
    await expect.poll(() => count(ask.url), { timeout: 15_000 }).toBe(1);
    await pause(6000);
    expect(count("Reconnect LinkedIn in Settings > Connections")).toBe(1);
    expect(count(`/content/post/${id}`)).toBe(1);
    expect(count(ask.url)).toBe(1);
  }, 120_000);
});
