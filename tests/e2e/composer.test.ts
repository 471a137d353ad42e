import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { axe, openSignedIn, press, screenshots, userInBrowser } from "./browser";
import { TestServer } from "./harness";

// The owner writes in the browser: a post and a three-part thread with live previews and X's
// counts, a reload that restores what was typed, keyboard only, then saved (found through the
// API) or published to the sandbox, which is never called LinkedIn or X.

const srv = new TestServer();
const OWNER = { email: "writer@example.com", password: "correct horse battery" };

const app = userInBrowser(srv, { ...OWNER, name: "Wendy Writer", allowPublishing: true, app: "Reader" });
const { newPage } = app;
const api = async (op: string, body: unknown) => srv.api(op, body, app.token);

const LONG = "Boring deploys are a feature.\nLine two.\nLine three.\nLine four, which LinkedIn folds away behind see more.";

/** Presses Tab until `id` has the focus (keyboard only), at most 60 times. */
async function tabTo(page: Page, id: string) {
  for (let i = 0; i < 60; i++) {
    if (await page.evaluate((want) => document.activeElement?.id === want, id)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached #${id}`);
}

describe("the composer", () => {
  it("writes a post and a three-part thread with live previews and counts, keeps them across a reload, and saves them", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/content`, OWNER.email, OWNER.password);
    // The way in from every page, and its shortcut.
    expect(await page.getByRole("link", { name: "Write", exact: true }).getAttribute("aria-keyshortcuts")).toBe("Alt+N");
    await page.keyboard.press("Alt+KeyN");
    await page.waitForURL(`${srv.origin}/write`);

    // Keyboard only: to the post's text, typed.
    await tabTo(page, "post_body");
    await page.keyboard.type(LONG); // Enter makes each line break
    const li = page.getByRole("figure", { name: "Preview as LinkedIn shows it" });
    await expect.poll(() => li.textContent()).toContain("Boring deploys are a feature.");
    expect(await li.getByRole("button", { name: /see more/ }).count()).toBe(1);

    await page.getByRole("checkbox", { name: "Sandbox for X" }).check();
    // Empty, the preview shows a hint and counts none of it.
    const emptyTweet = page.getByRole("figure", { name: "Preview as X shows it" });
    await expect.poll(() => emptyTweet.textContent()).toContain("Your tweet appears here as you type.");
    expect(await emptyTweet.textContent()).toContain("0 / 280 characters as X counts them");
    await page.getByLabel("Text", { exact: true }).nth(1).fill("Thread: one.");
    await page.getByRole("button", { name: "Add a part" }).click();
    await page.getByLabel("Part 2", { exact: true }).fill("x".repeat(300));
    await expect.poll(() => page.getByRole("listitem", { name: "Part 2 of 2" }).getByText("300 / 280: 20 too many").count()).toBe(1);
    await page.getByLabel("Part 2", { exact: true }).fill("Two.");
    await page.getByRole("button", { name: "Add a part" }).click();
    await page.getByLabel("Part 3", { exact: true }).fill("Three.");
    await page.getByRole("button", { name: "Move part 3 up" }).click();
    expect(await page.getByLabel("Part 2", { exact: true }).inputValue()).toBe("Three.");
    await page.getByRole("button", { name: "Move part 2 down" }).click();
    expect(await page.getByRole("figure", { name: "Preview as X shows it" }).count()).toBe(3);
    await page.locator("#first_comment").fill("Links in the comments.");
    // Never called LinkedIn or X: the sandbox stands in for both.
    expect(await page.getByRole("heading", { name: "Sandbox post" }).count()).toBe(1);
    expect(await page.getByRole("heading", { name: "Sandbox tweet (thread)" }).count()).toBe(1);
    expect(await li.textContent()).toContain("Now · sandbox, drawn as LinkedIn shows it");
    await axe(page);
    await screenshots(page, "composer");

    // A reload mid-writing loses nothing.
    await page.reload();
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Restored what you were writing here before.");
    expect(await page.locator("#post_body").inputValue()).toBe(LONG);
    expect(await page.getByLabel("Part 3", { exact: true }).inputValue()).toBe("Three.");

    await tabTo(page, "save-draft");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/content\/post\/[^/?]+\?done=saved$/);
    const postId = new URL(page.url()).pathname.split("/").pop()!;
    // One item written for both: the post's page names its tweet.
    expect(await page.getByText("Also as a sandbox tweet:").count()).toBe(1);
    const post = (await api("fetch_item", { type: "post", id: postId })).body;
    expect(post).toMatchObject({ body: LONG, first_comment: "Links in the comments." });
    const found = (await api("search_content", { types: ["tweet"] })).body.results as { id: string }[];
    const tweet = (await api("fetch_item", { type: "tweet", id: found[0].id })).body;
    expect(tweet).toMatchObject({ body: "Thread: one.", links: { post_draft_id: postId } });
    expect(tweet.thread.map((p: { text: string }) => p.text)).toEqual(["Two.", "Three."]);
    // Saved: the next visit starts empty.
    await page.goto(`${srv.origin}/write`);
    expect(await page.locator("#post_body").inputValue()).toBe("");
    expect(await page.getByRole("status").count()).toBe(0);
    await page.close();
  }, 120_000);

  it("publishes now after a dialog naming the sandbox, and refuses an empty text, keeping what was typed", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    await page.getByRole("checkbox", { name: "Sandbox for X" }).check();
    await page.locator("#post_body").fill("Launchday out now.");
    await page.getByRole("button", { name: "Publish now" }).click();
    const question = await page.getByRole("dialog").textContent();
    expect(question).toContain("Publish to the sandbox (LinkedIn is not set up");
    expect(question).not.toMatch(/Publish to (LinkedIn|X)\b/);
    await press(page.getByRole("dialog").getByRole("button", { name: "Publish now" }));
    // The summary says it and takes the focus, linking to the empty field.
    await expect
      .poll(async () => (await page.locator(".error-summary > p").first().textContent())?.trim())
      .toBe("Write the tweet's text, or untick where it goes.");
    expect(await page.evaluate(() => document.activeElement?.classList.contains("error-summary"))).toBe(true);
    expect(await page.locator(".error-summary").getByRole("link", { name: "The tweet's text" }).getAttribute("href")).toBe("#part-0");
    // The refused form keeps its text, and nothing was written.
    expect(await page.locator("#post_body").inputValue()).toBe("Launchday out now.");
    expect((await api("search_content", { query: "Launchday" })).body.results).toEqual([]);
    await page.getByLabel("Text", { exact: true }).nth(1).fill("Launchday on the other one.");
    await page.getByRole("button", { name: "Publish now" }).click();
    // A double press of the dialog's button publishes once: one post and its tweet.
    const confirm = page.getByRole("dialog").getByRole("button", { name: "Publish now" });
    await confirm.hover();
    await expect.poll(() => confirm.getAttribute("data-armed")).toBe("true");
    await confirm.dblclick();
    await page.waitForURL(/\/content\/post\/[^/?]+\?done=published$/);
    expect(await page.getByText("It is live: see it in the sandbox").count()).toBe(1);
    const out = (await api("search_content", { query: "Launchday" })).body.results as { type: string; status: string }[];
    expect(out.map((r) => [r.type, r.status]).sort()).toEqual([
      ["post", "published"],
      ["tweet", "published"],
    ]);
    await page.close();
  }, 120_000);

  it("the item page's Edit opens the composer on the draft, saves changes on top of it, and never over an app's newer edit", async () => {
    const chart = await sharp({ create: { width: 60, height: 40, channels: 3, background: "green" } })
      .png()
      .toBuffer();
    const image = (await api("upload_media", { data: chart.toString("base64"), content_type: "image/png", filename: "chart.png" })).body.url;
    const { id } = (
      await api("create_draft", { type: "tweet", body: "One.", thread: ["Two.", { text: "Three.", image_urls: [image] }], first_comment: "More below." })
    ).body;
    const page = await newPage();
    const part = (n: number) => page.getByLabel(`Part ${n}`, { exact: true });
    await openSignedIn(page, `${srv.origin}/content/tweet/${id}`, OWNER.email, OWNER.password);
    await page.getByRole("link", { name: "Edit in the composer" }).click();
    await page.waitForURL(`${srv.origin}/write/tweet/${id}`);
    // The whole draft: its parts, the image of part 3, its first comment; and it stays a tweet.
    expect([await part(1).inputValue(), await part(2).inputValue(), await part(3).inputValue()]).toEqual(["One.", "Two.", "Three."]);
    expect(await page.getByRole("list", { name: "Files for part 3" }).locator("img").count()).toBe(1);
    expect(await page.locator("#first_comment").inputValue()).toBe("More below.");
    expect(await page.getByRole("checkbox").count()).toBe(0);
    // An unscheduled draft's texts save themselves as the owner pauses.
    await part(1).fill("One, autosaved.");
    await expect.poll(() => page.getByText(/^Text saved automatically at/).count(), { timeout: 15_000 }).toBe(1);
    expect((await api("fetch_item", { type: "tweet", id })).body.body).toBe("One, autosaved.");
    await part(2).fill("Two, better.");
    await page.getByLabel("Description of chart.png (alt text)").fill("A rising chart");
    // A reload mid-edit keeps the change.
    await page.reload();
    await expect.poll(() => page.getByRole("status").first().textContent()).toBe("Restored what you were writing here before.");
    expect(await part(2).inputValue()).toBe("Two, better.");
    await axe(page);
    await screenshots(page, "composer-edit");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(`${srv.origin}/content/tweet/${id}?done=saved`);
    const saved = (await api("fetch_item", { type: "tweet", id })).body;
    expect(saved).toMatchObject({ body: "One, autosaved.", first_comment: "More below." });
    expect(saved.thread.map((p: { text: string }) => p.text)).toEqual(["Two, better.", "Three."]);
    expect(saved.thread[1].image_urls).toHaveLength(1);
    expect(await page.getByText("Posted with the description: “A rising chart”").count()).toBe(1);

    // An app edits it while the composer is open: saving then changes nothing, keeping what was typed.
    await page.goto(`${srv.origin}/write/tweet/${id}`);
    expect((await api("update_draft", { type: "tweet", id, body: "One, by the app." })).status).toBe(200);
    await part(1).fill("One, by me.");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => page.locator(".error-box").textContent()).toContain("changed after the page showed it");
    expect(await part(1).inputValue()).toBe("One, by me.");
    expect((await api("fetch_item", { type: "tweet", id })).body.body).toBe("One, by the app.");
    // Opened again: the app's version, with what was typed restored and flagged as typed on an older one.
    await page.goto(`${srv.origin}/write/tweet/${id}`);
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("on an older version of this draft");
    expect(await part(1).inputValue()).toBe("One, by me.");

    // Saved and scheduled in one press.
    await page.getByText("Schedule for…").click();
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await page.waitForURL(`${srv.origin}/content/tweet/${id}?done=saved-scheduled`);
    expect((await api("fetch_item", { type: "tweet", id })).body).toMatchObject({ body: "One, by me.", status: "scheduled" });
    await page.close();
  }, 180_000);

  it("pages load without a missing favicon, and an unknown address gets the branded 404 with the navigation", async () => {
    const page = await newPage();
    const missing: string[] = [];
    page.on("response", (r) => void (r.status() === 404 && missing.push(r.url())));
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    await page.waitForLoadState("networkidle");
    expect(missing).toEqual([]);
    const res = await page.goto(`${srv.origin}/no/such/page`);
    expect(res?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "Not found" }).count()).toBe(1);
    expect(await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Write", exact: true }).count()).toBe(1);
    await axe(page);
    await page.close();
  }, 60_000);
});
