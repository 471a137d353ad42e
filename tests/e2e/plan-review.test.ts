import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axe, forgedForm, openSignedIn, press, screenshots, userInBrowser } from "./browser";
import { TestServer } from "./harness";

// A plan in one review (issue 55): an app proposes a week of posts under one plan label; the
// owner reviews all of them on one page, each in full with its own checkbox, unticks two and
// approves the rest; exactly those five are scheduled when the app repeats its calls.
const srv = new TestServer();
const ownerPassword = "correct horse battery";
const EMAIL = "plan-reviewer@example.com";
const PLAN = "Week 47";
/** A 2 x 2 PNG, base64. */
const PNG_2X2 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWNg6DgDQhAKACIOBVEyhxYyAAAAAElFTkSuQmCC";

const app = userInBrowser(srv, { email: EMAIL, password: ownerPassword, allowPublishing: true, app: "Desk Assistant" });

const api = (op: string, body: unknown) => srv.api(op, body, app.token);
const items = (page: Page) => page.getByRole("list", { name: "Actions of this plan" }).locator(":scope > li");

/** The page at a phone's and a desktop's width, each checked by axe. */
async function axeAtBoth(page: Page) {
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ]) {
    await page.setViewportSize({ width, height });
    await axe(page);
  }
}

describe("a plan in one review", () => {
  it("shows the plan's seven actions in full; unticking two and approving the rest schedules exactly five", async () => {
    const page = await openSignedIn(await app.newPage(), `${srv.origin}/queue`, EMAIL, ownerPassword);
    const image = await api("upload_media", { data: PNG_2X2, content_type: "image/png", filename: "dot.png", alt_text: "A blue dot on white" });
    expect(image.status).toBe(200);
    const week: { id: string; args: Record<string, unknown>; url: string }[] = [];
    for (let i = 1; i <= 7; i++) {
      const body = `Day ${i}: what the week taught us.\nPart ${i} of seven.`;
      const d = await api("create_draft", { type: "post", body, ...(i === 3 && { image_urls: [image.body.url] }) });
      expect(d.status).toBe(200);
      const args = { type: "post", id: d.body.id, scheduled_for: new Date(Date.now() + i * 86400_000).toISOString(), plan: PLAN };
      const asked = await api("schedule_content", args);
      expect(asked.body.error.code).toBe("confirmation_required");
      week.push({ id: d.body.id, args, url: asked.body.error.confirmation.plan.url });
    }
    expect(new Set(week.map((w) => w.url)).size).toBe(1);
    const planUrl = week[0].url;

    // The inbox shows one plan of seven, which leads to its review.
    await page.goto(`${srv.origin}/approvals`);
    const plans = page.getByRole("list", { name: "Plans waiting for your review" }).locator(":scope > li");
    await expect.poll(() => plans.count()).toBe(1);
    expect(await plans.getByRole("heading").textContent()).toBe(`Desk Assistant’s plan “${PLAN}”: 7 actions`);
    expect(await page.getByRole("list", { name: "Requests waiting for your approval" }).count()).toBe(0);
    await axe(page);
    await plans.getByRole("link", { name: /^Review the plan/ }).click();
    await page.waitForURL(planUrl);

    // Each of the seven in full: its text, account and time, the image with its alt text; each ticked.
    await expect.poll(() => items(page).count()).toBe(7);
    for (let i = 0; i < 7; i++) {
      const item = items(page).nth(i);
      expect(await item.getByRole("heading", { level: 2 }).textContent()).toBe(`${i + 1}. Schedule “Day ${i + 1}: what the week taught us.”`);
      expect(await item.locator(".post-text").textContent()).toBe(`Day ${i + 1}: what the week taught us.\nPart ${i + 1} of seven.`);
      expect(await item.textContent()).toMatch(/Platformthe sandbox \(LinkedIn is not set up/);
      expect(await item.getByRole("checkbox").isChecked()).toBe(true);
    }
    expect(await items(page).nth(2).getByRole("img", { name: "A blue dot on white" }).count()).toBe(1);
    await axeAtBoth(page);
    await screenshots(page, "plan-review");

    // A post of this form from another site, or without the page's CSRF proof, decides nothing.
    const forged = await forgedForm(page, planUrl, 'name="item"');
    await forged.post({ decision: "approve", approve: week[0].id }, { origin: "https://attacker.example", csrf: forged.csrf });
    await forged.post({ decision: "decline" }, {});
    await page.reload();
    await expect.poll(() => items(page).count()).toBe(7);
    expect((await api("schedule_content", week[0].args)).status).toBe(403);

    // Untick the last two, approve the rest.
    for (const i of [5, 6]) await items(page).nth(i).getByRole("checkbox").uncheck();
    await press(page.getByRole("button", { name: "Approve selected" }));
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Approved 5 actions, declined 2.");
    expect(await page.getByText("Nothing of this plan is waiting for your decision.").count()).toBe(1);
    await axeAtBoth(page);
    await screenshots(page, "plan-review-decided");

    // The app repeats its calls: exactly the five are scheduled.
    const repeated = [];
    for (const w of week) repeated.push((await api("schedule_content", w.args)).status);
    expect(repeated).toEqual([200, 200, 200, 200, 200, 403, 403]);
    const scheduled = await api("list_scheduled", {});
    expect(scheduled.body.items.map((s: { id: string }) => s.id).sort()).toEqual(
      week
        .slice(0, 5)
        .map((w) => w.id)
        .sort(),
    );
    await page.close();
  }, 240_000);
});
