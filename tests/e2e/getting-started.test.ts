import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appInBrowser, axe, press, screenshots, signIn } from "./browser";
import { TestServer } from "./harness";

// A first-time owner from a fresh start, in sandbox mode (no LinkedIn or X app credentials):
// the sandbox is a connected account on each network with weekday slots, so the queue works
// at once; every refused form puts its message where the owner is looking, with the focus on
// it and links to the fields; Publish now refuses what X would refuse before its dialog; and a
// "Getting started" list ticks itself as the owner goes.

const srv = new TestServer();
let ownerPassword = "";
const EMAIL = "owner@example.com";

const app = appInBrowser(srv, async () => {
  ({ ownerPassword } = await srv.firstStart());
});

/** The id of the focused element, and whether it is the error summary. */
const focused = (page: Page) =>
  page.evaluate(() => (document.activeElement?.classList.contains("error-summary") ? "summary" : (document.activeElement?.id ?? "")));

/** The error summary is in view: its top inside the viewport. */
const inView = (page: Page) =>
  page.evaluate(() => {
    const r = document.querySelector(".error-summary")!.getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight;
  });

const steps = (page: Page) => page.getByRole("region", { name: "Getting started" }).getByRole("listitem");
const tick = (page: Page, label: string) => steps(page).filter({ hasText: label }).locator(".sr-only").textContent();

describe("a first run that shows everything", () => {
  let page: Page;

  it("onboarding's refused Save and finish moves the focus to a summary that links to the field", async () => {
    page = await app.newPage({ timezoneId: "Europe/Berlin" });
    await page.goto(`${srv.origin}/signin`);
    await signIn(page, EMAIL, ownerPassword);
    await page.waitForURL(/\/onboarding/);
    await page.getByLabel("Your name").fill("Olga Owner");
    await page.getByLabel("Time zone").fill("Mars/Olympus");
    await page.getByLabel("Sample post 1").fill("Small steps, shipped daily.");
    await page.getByLabel("Tone").fill("plain");
    // Pressed from the bottom of a long form: the message must come to the owner.
    await page.getByRole("button", { name: "Save and finish" }).scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "Save and finish" }).click();
    await expect.poll(() => focused(page)).toBe("summary");
    expect(await inView(page)).toBe(true);
    expect(await page.getByLabel("Time zone").getAttribute("aria-invalid")).toBe("true");
    const link = page.locator(".error-summary").getByRole("link", { name: /Time zone/ });
    expect(await link.getAttribute("href")).toBe("#timezone");
    await link.click();
    expect(await focused(page)).toBe("timezone");
    await axe(page);
    await screenshots(page, "getting-started-onboarding-error");
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByRole("button", { name: "Save and finish" }).click();
    await page.waitForURL(`${srv.origin}/content`);
  }, 120_000);

  it("lands on a Getting started list; Approvals is in the navigation", async () => {
    await page.goto(`${srv.origin}/content`);
    expect(await steps(page).count()).toBe(5);
    expect(await steps(page).allTextContents()).toEqual([
      expect.stringContaining("Write a post"),
      expect.stringContaining("Add it to the queue"),
      expect.stringContaining("Publish one to the sandbox"),
      expect.stringContaining("Connect an assistant"),
      expect.stringContaining("Connect LinkedIn or X for real"),
    ]);
    expect(await tick(page, "Write a post")).toBe("(not done yet)");
    expect(await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Approvals" }).getAttribute("href")).toBe("/approvals");
    await axe(page);
    await screenshots(page, "getting-started-content");
  }, 60_000);

  it("the sandbox is a connected account on each network, with weekday slots at 09:00 and 17:00", async () => {
    await page.goto(`${srv.origin}/queue`);
    expect(await page.getByText("No LinkedIn or X account is connected yet").count()).toBe(0);
    for (const name of ["Sandbox: posts", "Sandbox: tweets"]) {
      const queue = page.getByRole("region", { name: new RegExp(`^${name}`) });
      expect(await queue.textContent()).not.toMatch(/\b(LinkedIn|X):/);
      const slots = await queue
        .getByRole("list", { name: /^Slots of/ })
        .getByRole("listitem")
        .allTextContents();
      expect(slots.map((s) => s.replace(/Remove$/, "").trim())).toEqual(
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"].flatMap((d) => [`${d} 09:00`, `${d} 17:00`]),
      );
      const next = await queue
        .getByRole("list", { name: /^Next slots of/ })
        .getByRole("listitem")
        .first()
        .textContent();
      expect(next).toMatch(/(09:00|17:00) CET|(09:00|17:00) CEST/);
    }
    await axe(page);
    await screenshots(page, "getting-started-queue");
    // Settings says what it is, and it cannot be disconnected like a real account.
    await page.goto(`${srv.origin}/settings/connections`);
    const li = page.getByRole("list", { name: "LinkedIn accounts" });
    expect(await li.textContent()).toContain("Sandbox");
    expect(await li.getByRole("button", { name: "Disconnect" }).count()).toBe(0);
    await axe(page);
  }, 60_000);

  it("Add to queue schedules a new post into the sandbox's next slot, and the list ticks", async () => {
    await page.goto(`${srv.origin}/write`);
    await page.locator("#post_body").fill("First steps in the queue.");
    const said = await page.locator("#queue-slot").textContent();
    expect(said).toMatch(/^The queue puts it in the next free slot: .*(09:00|17:00)/);
    await page.getByRole("button", { name: "Add to queue" }).click();
    await page.waitForURL(/\/content\/post\/[^/?]+\?done=queued$/);
    await page.goto(`${srv.origin}/queue`);
    const queue = page.getByRole("region", { name: /^Sandbox: posts/ });
    expect(
      await queue
        .getByRole("list", { name: /^Next slots of/ })
        .getByRole("listitem")
        .first()
        .textContent(),
    ).toContain("First steps in the queue.");
    await page.goto(`${srv.origin}/content`);
    expect(await tick(page, "Write a post")).toBe("(done)");
    expect(await tick(page, "Add it to the queue")).toBe("(done)");
    expect(await tick(page, "Publish one to the sandbox")).toBe("(not done yet)");
  }, 60_000);

  it("an over-long tweet's Save, and a past time in Schedule for…, put the error in view with the focus on it", async () => {
    await page.goto(`${srv.origin}/write`);
    await page.getByRole("checkbox", { name: /^Sandbox for LinkedIn/ }).uncheck();
    await page.getByRole("checkbox", { name: "Sandbox for X" }).check();
    await page.locator("#part-0").fill("y".repeat(361));
    await page.getByRole("button", { name: "Save draft" }).scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect.poll(() => focused(page)).toBe("summary");
    expect(await inView(page)).toBe(true);
    expect(await page.locator("#part-0").getAttribute("aria-invalid")).toBe("true");
    expect(
      await page
        .locator(".error-summary")
        .getByRole("link", { name: /The tweet's text/ })
        .getAttribute("href"),
    ).toBe("#part-0");
    await axe(page);
    await screenshots(page, "getting-started-tweet-error");

    // A time already past today, in the owner's zone: refused before anything is saved.
    await page.locator("#part-0").fill("On time.");
    await page.getByText("Schedule for…").click();
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(new Date());
    await page.locator(`td[data-day="${today}"]:not([data-outside]) button`).click();
    await page.locator("#time").fill("00:00");
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => focused(page)).toBe("summary");
    expect(await inView(page)).toBe(true);
    expect(await page.locator(".error-summary").textContent()).toContain("in the future");
    expect(await page.locator("#time").getAttribute("aria-invalid")).toBe("true");
    expect(
      await page
        .locator(".error-summary")
        .getByRole("link", { name: /The time/ })
        .getAttribute("href"),
    ).toBe("#time");
    await axe(page);
  }, 90_000);

  it("Publish now on a 361/280 tweet is refused before any dialog, with the way out; a fitting one goes to the sandbox", async () => {
    await page.goto(`${srv.origin}/write`);
    await page.getByRole("checkbox", { name: /^Sandbox for LinkedIn/ }).uncheck();
    await page.getByRole("checkbox", { name: "Sandbox for X" }).check();
    const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i + 1} here.`).join(" ");
    await page.locator("#part-0").fill(long.slice(0, 361));
    await page.getByRole("button", { name: "Publish now" }).click();
    expect(await page.getByRole("dialog").count()).toBe(0);
    await expect.poll(() => focused(page)).toBe("summary");
    const summary = page.locator(".error-summary");
    expect(await summary.textContent()).toContain("361 / 280");
    expect(await summary.textContent()).toContain("Split it into a thread, or shorten it");
    await screenshots(page, "getting-started-publish-refused");
    await summary.getByRole("button", { name: "Split into a thread" }).click();
    await expect.poll(() => page.locator("textarea[id^=part-]").count()).toBeGreaterThan(1);
    expect(await page.locator(".error-summary").count()).toBe(0);
    await page.getByRole("button", { name: "Publish now" }).click();
    expect(await page.getByRole("dialog").textContent()).toContain("cannot be undone");
    await press(page.getByRole("dialog").getByRole("button", { name: "Publish now" }));
    await page.waitForURL(/\/content\/tweet\/[^/?]+\?done=published$/);
    // The sandbox's page says when in the owner's zone and format: no ISO timestamp.
    await page.goto((await page.getByRole("link", { name: "see it in the sandbox" }).getAttribute("href"))!);
    const shown = await page.locator("main").innerText();
    expect(shown).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(shown).toMatch(/published \w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2} CES?T/);
    await page.goto(`${srv.origin}/content`);
    expect(await tick(page, "Publish one to the sandbox")).toBe("(done)");
  }, 90_000);

  it("check-connections says the sandbox is in use, and what sets each network up", async () => {
    const out = JSON.parse((await srv.admin("check-connections", "--email", EMAIL)).stdout);
    expect(out.connections).toEqual([]);
    expect(out.sandbox.map((s: { network: string }) => s.network)).toEqual(["LinkedIn", "X"]);
    expect(out.sandbox[0].detail).toMatch(/LinkedIn is not set up: its drafts go to the built-in sandbox.*LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET/);
  }, 60_000);

  it("the list can be put away, and is found again under Profile", async () => {
    await page.goto(`${srv.origin}/content`);
    await page.getByRole("button", { name: "Put this list away" }).click();
    await expect.poll(() => page.getByRole("region", { name: "Getting started" }).count()).toBe(0);
    await page.goto(`${srv.origin}/onboarding`);
    expect(await steps(page).count()).toBe(5);
    await axe(page);
    await page.getByRole("button", { name: "Show it on Content again" }).click();
    await page.waitForURL(`${srv.origin}/content`);
    expect(await page.getByRole("region", { name: "Getting started" }).count()).toBe(1);
  }, 60_000);
});
