import { describe, expect, it } from "vitest";
import { appInBrowser, axe, openSignedIn, screenshots } from "./browser";
import { TestServer } from "./harness";

// The composer and the owner's pages with a Bluesky account connected (and X not set up, so
// the sandbox stands in for X beside it): a tweet for the Bluesky account is counted,
// split, previewed and refused the way Bluesky counts (graphemes), and a draft scheduled for
// it says Bluesky on the calendar, the content list, its page and the queue.

const srv = new TestServer();
const OWNER = { email: "wren@example.com", password: "correct horse battery" };
const HANDLE = "wren.bsky.social";

const { newPage } = appInBrowser(srv, async () => {
  await srv.admin("create-user", "--email", OWNER.email, "--password", OWNER.password, "--name", "Wren Writer", "--plan", "creator", "--allow-publishing");
  // A stored Bluesky connection, as "Connect Bluesky" leaves it (nothing here reaches the PDS).
  await srv.seedAccounts(OWNER.email, [
    {
      provider: "bluesky",
      providerAccountId: "did:plc:wrenwriter0000000000000",
      access_token: "bsky-access",
      refresh_token: "bsky-refresh",
      expires_at: Math.floor(Date.now() / 1000) + 3600,
      handle: HANDLE,
    },
  ]);
});

/** A day a few days ahead, as YYYY-MM-DD: in the future in any time zone. */
const ahead = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);

describe("Bluesky in the composer and the owner's pages", () => {
  it("counts graphemes, refuses 301 before Publish now naming Bluesky, splits for Bluesky, and schedules a Bluesky post", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/write`, OWNER.email, OWNER.password);
    await page.goto(`${srv.origin}/write?d=${ahead}`);
    await page.getByRole("checkbox", { name: /^Sandbox for LinkedIn/ }).uncheck();
    // The checkbox names both places a tweet can go; the Bluesky account is the default.
    await page.getByRole("checkbox", { name: "Bluesky or sandbox for X" }).check();
    expect(await page.getByRole("combobox", { name: "X or Bluesky account" }).locator("option:checked").textContent()).toBe(`${HANDLE} (default)`);
    expect(await page.getByRole("heading", { name: "Bluesky post", exact: true }).count()).toBe(1);

    // An emoji with its skin tone and a flag count 1 each, as Bluesky counts them.
    await page.locator("#part-0").fill("Hi 👋🏽 from 🇩🇪");
    await expect.poll(() => page.locator("#count-0").textContent()).toBe("11 / 300");
    const preview = page.getByRole("figure", { name: "Preview as Bluesky shows it" });
    expect(await preview.textContent()).toContain("11 / 300 characters as Bluesky counts them");
    expect(await preview.textContent()).toContain(`Wren Writer ${HANDLE} · now`);
    // X's price note is X's alone.
    expect(await page.getByTestId("x-cost").count()).toBe(0);
    await axe(page);
    await screenshots(page, "composer-bluesky");

    // 301 graphemes: refused before the dialog, in Bluesky's words, with the way out.
    await page.locator("#part-0").fill(`${"👍🏻".repeat(300)}!`);
    await expect.poll(() => page.locator("#count-0").textContent()).toBe("301 / 300: 1 too many for Bluesky");
    await page.getByRole("button", { name: "Publish now" }).click();
    const summary = page.locator(".error-summary");
    await expect
      .poll(() => summary.locator("p").first().textContent())
      .toBe(
        "Bluesky would refuse it, so nothing was published: This post is 301 / 300 characters as Bluesky counts them (1 too many). " +
          "Split it into a thread, or shorten it.",
      );
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await summary.getByRole("link", { name: "Shorten the post's text" }).getAttribute("href")).toBe("#part-0");
    await screenshots(page, "composer-bluesky-refused");

    // Split for Bluesky's 300 graphemes: wide characters count 1 there (2 on X, where this would take 3 parts).
    await page.locator("#part-0").fill("日本語のテキストです。 ".repeat(30).trim()); // 359 graphemes, 689 as X counts them
    await page.getByRole("button", { name: "Split into a thread" }).first().click();
    await expect.poll(() => page.locator("textarea[id^=part-]").count()).toBe(2);
    expect(await page.getByRole("heading", { name: "Bluesky thread", exact: true }).count()).toBe(1);
    expect(await page.locator("#count-0").textContent()).toMatch(/^\d+ \/ 300$/);

    // The sandbox account is X's: the same text counts as X does there.
    await page.getByRole("combobox", { name: "X or Bluesky account" }).selectOption({ label: "Sandbox" });
    expect(await page.getByRole("heading", { name: "Sandbox tweet (thread)" }).count()).toBe(1);
    await expect.poll(() => page.locator("#count-1").textContent()).toMatch(/ \/ 280/);
    await page.getByRole("combobox", { name: "X or Bluesky account" }).selectOption({ label: `${HANDLE} (default)` });

    // Scheduled for the Bluesky account (the day the page was opened for).
    await page.locator("#part-0").fill("Scheduled for Bluesky.");
    await page.getByRole("button", { name: "Remove part 2" }).click();
    await page.getByText("Schedule for…").click();
    await page.locator("#time").fill("10:00");
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await page.waitForURL(/\/content\/tweet\/[^/?]+\?done=scheduled$/);
    const item = page.url().split("?")[0];
    expect(await page.locator(".meta .badge.net").first().textContent()).toBe("Bluesky");
    expect(await page.getByRole("figure", { name: "Preview as Bluesky shows it" }).count()).toBe(1);
    // Its page's Publish now holds it to Bluesky's limit too, before any dialog.
    await page.locator("#body").fill("é".repeat(301));
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect
      .poll(() => page.locator(".error-summary p").first().textContent())
      .toBe(
        "Bluesky would refuse it, so nothing was published: this post is 301 / 300 characters as Bluesky counts them (1 too many). " +
          "Shorten it, or split it into a thread in the composer (Edit in the composer).",
      );
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.locator("#body").fill("Scheduled for Bluesky.");

    await page.goto(`${srv.origin}/calendar?view=month&d=${ahead}`);
    const entry = page.locator(".cal-days .cal-item", { hasText: "Scheduled for Bluesky." });
    expect(await entry.locator(".net").textContent()).toBe("Bluesky");
    expect(await entry.getAttribute("class")).toContain("net-bluesky");
    await screenshots(page, "calendar-bluesky");

    await page.goto(`${srv.origin}/content?network=tweet`);
    const row = page.getByRole("heading", { name: /Scheduled for Bluesky\./ });
    expect(await row.locator(".badge").textContent()).toBe("Bluesky");

    await page.goto(`${srv.origin}/queue`);
    expect(await page.getByRole("heading", { name: new RegExp(`^Bluesky: ${HANDLE.replace(/\./g, "\\.")}`) }).count()).toBe(1);
    expect(await page.getByRole("heading", { name: /^X: / }).count()).toBe(0);
    expect(item).toContain("/content/tweet/");
    await page.close();
  }, 180_000);
});
