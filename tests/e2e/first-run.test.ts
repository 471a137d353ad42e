import { describe, expect, it } from "vitest";
import { appInBrowser, axe, screenshots, signIn } from "./browser";
import { TestServer } from "./harness";

// The owner the first start makes (name "Owner", UTC, no voice) is sent through onboarding
// once: signing in lands there, with the browser's time zone offered, until they save it.
const srv = new TestServer();
let ownerPassword = "";

const app = appInBrowser(srv, async () => {
  ({ ownerPassword } = await srv.firstStart());
});

describe("the first start's owner", () => {
  it("a sign-in on its way to another page still goes there", async () => {
    // Before saving anything: a link to an approval, consent or a setting is followed.
    const page = await app.newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    await signIn(page, "owner@example.com", ownerPassword);
    await page.waitForURL(`${srv.origin}/settings/connections`);
  }, 60_000);

  it("lands on onboarding at the first sign-in, with the browser's time zone, and never again after saving", async () => {
    const page = await app.newPage({ timezoneId: "Europe/Berlin" });
    await page.goto(`${srv.origin}/signin`);
    await signIn(page, "owner@example.com", ownerPassword);
    await page.waitForURL(`${srv.origin}/onboarding?next=%2Fcontent`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Welcome: set up your profile");
    const zone = page.getByLabel("Time zone");
    await expect.poll(() => zone.inputValue()).toBe("Europe/Berlin");
    // A searchable list of every zone the browser knows.
    expect(await zone.getAttribute("list")).toBe("timezones");
    expect(await page.locator("datalist#timezones option[value='America/New_York']").count()).toBe(1);
    await axe(page);
    await screenshots(page, "first-run-onboarding");

    // A name that is no zone is refused by the server, and what was typed stays.
    await page.getByLabel("Your name").fill("Olga Owner");
    await zone.fill("Mars/Olympus");
    await page.getByLabel("Sample post 1").fill("Small steps, shipped daily.");
    await page.getByLabel("Tone").fill("plain");
    await page.getByRole("button", { name: "Save and finish" }).click();
    // Beside the field, and in the summary above the form, which links to it.
    await expect.poll(() => page.locator("#timezone-error").textContent()).toContain("Choose a time zone or a city from the list");
    expect(
      await page
        .locator(".error-summary")
        .getByRole("link", { name: /Choose a time zone or a city from the list/ })
        .getAttribute("href"),
    ).toBe("#timezone");
    expect(await page.getByLabel("Tone").inputValue()).toBe("plain");
    await axe(page);
    await page.getByLabel("Time zone").fill("berlin"); // a city names its zone, in any case
    await page.getByRole("button", { name: "Save and finish" }).click();
    await page.waitForURL(`${srv.origin}/content`);

    // Saved: the profile page says so, and signing in again goes straight home.
    await page.goto(`${srv.origin}/onboarding`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Your profile and voice");
    expect(await page.getByLabel("Time zone").inputValue()).toBe("Europe/Berlin");
    expect(await page.getByLabel("Your name").inputValue()).toBe("Olga Owner");
    const again = await app.newPage({ timezoneId: "America/New_York" });
    await again.goto(`${srv.origin}/signin`);
    await signIn(again, "owner@example.com", ownerPassword);
    await again.waitForURL(`${srv.origin}/content`);
    // A saved zone is kept, whatever the browser's.
    await again.goto(`${srv.origin}/onboarding`);
    expect(await again.getByLabel("Time zone").inputValue()).toBe("Europe/Berlin");
  }, 120_000);
});
