import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axe, openSignedIn, press, screenshots, userInBrowser } from "./browser";
import { TestServer } from "./harness";

// The approvals inbox (issue 43): the banner's link leads to every request waiting for the
// owner, each with its preview, its expiry and the way to its own page, where it is decided.
const srv = new TestServer();
const ownerPassword = "correct horse battery";
const EMAIL = "inbox-owner@example.com";

const app = userInBrowser(srv, { email: EMAIL, password: ownerPassword, allowPublishing: true, app: "Desk Assistant" });

const api = (op: string, body: unknown) => srv.api(op, body, app.token);
const entries = (page: Page) => page.getByRole("list", { name: "Requests waiting for your approval" }).locator(":scope > li");

describe("the approvals inbox", () => {
  it("lists each waiting request with its preview and expiry, links to where it is decided, and empties as they are", async () => {
    // The owner has opened their pages once (which gives them the sandbox's accounts, so an
    // approval names the account the draft goes to, as it will be when the app repeats the call).
    const page = await openSignedIn(await app.newPage(), `${srv.origin}/queue`, EMAIL, ownerPassword);
    const post = await api("create_draft", { type: "post", body: "Inbox zero is a myth.\nApprovals are not." });
    expect(post.status).toBe(200);
    const publish = await api("publish_now", { type: "post", id: post.body.id });
    expect(publish.body.error.code).toBe("confirmation_required");
    const tweet = await api("create_draft", { type: "tweet", body: "Scheduled, pending your yes.", post_draft_id: post.body.id });
    expect(tweet.status).toBe(200);
    const when = new Date(Date.now() + 86400_000).toISOString();
    const schedule = await api("schedule_content", { type: "tweet", id: tweet.body.id, scheduled_for: when });
    expect(schedule.body.error.code).toBe("confirmation_required");
    // A second request on the same draft: the banner counts requests, as the inbox lists them.
    const later = new Date(Date.now() + 2 * 86400_000).toISOString();
    expect((await api("schedule_content", { type: "tweet", id: tweet.body.id, scheduled_for: later })).body.error.code).toBe("confirmation_required");

    // Any owner page has the banner (the first start's owner, still to be onboarded, would be
    // sent to onboarding from the home page).
    await page.reload();
    const banner = page.getByRole("complementary", { name: "Needs attention" });
    await expect.poll(() => banner.textContent()).toContain("3 requests waiting for your approval");
    // Approvals is in the navigation too, with the number waiting.
    expect(
      await page
        .getByRole("navigation", { name: "Account" })
        .getByRole("link", { name: /^Approvals/ })
        .textContent(),
    ).toBe("Approvals 3 waiting");
    await banner.getByRole("link", { name: "Review requests" }).click();
    await page.waitForURL(`${srv.origin}/approvals`);
    await expect.poll(() => entries(page).count()).toBe(3);

    const first = entries(page).filter({ hasText: "publish this now" });
    expect(await first.getByRole("heading").textContent()).toMatch(/^Desk Assistant wants to publish this now: “/);
    expect(await first.getByRole("figure", { name: "Preview as LinkedIn shows it" }).textContent()).toContain("Inbox zero is a myth.");
    expect(await first.textContent()).toMatch(/Expiresin \d+ minutes, at \d\d:\d\d/);
    // The action in words; its operation's name only beside them.
    expect(await first.textContent()).toContain("ActionPublish this now.Operation publish_now");
    expect(await first.getByRole("link", { name: /^Review and decide/ }).getAttribute("href")).toBe(new URL(publish.body.error.confirmation.url).pathname);
    expect(await first.getByRole("link", { name: /^Open the draft/ }).getAttribute("href")).toBe(`/content/post/${post.body.id}`);
    const second = entries(page).filter({ hasText: "schedule this" }).first();
    expect(await second.getByRole("figure", { name: "Preview as X shows it" }).textContent()).toContain("Scheduled, pending your yes.");
    expect(await second.getByRole("link", { name: /^Open the draft/ }).getAttribute("href")).toBe(`/content/tweet/${tweet.body.id}`);
    await axe(page);
    await screenshots(page, "approvals-inbox");

    // Approving happens on the request's own page, as before; the inbox only leads there.
    await first.getByRole("link", { name: /^Review and decide/ }).click();
    await page.waitForURL(/\/confirm\//);
    await press(page.getByRole("button", { name: "Approve" }));
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Approved\./);
    await page.goto(`${srv.origin}/approvals`);
    for (const left of [2, 1]) {
      await expect.poll(() => entries(page).count()).toBe(left);
      await entries(page)
        .first()
        .getByRole("link", { name: /^Review and decide/ })
        .click();
      await page.waitForURL(/\/confirm\//);
      await page.getByRole("button", { name: "Deny" }).click();
      await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Denied\./);
      await page.goto(`${srv.origin}/approvals`);
    }
    await expect.poll(() => page.getByText("Nothing is waiting for your approval.").count()).toBe(1);
    expect(await page.getByRole("complementary", { name: "Needs attention" }).count()).toBe(0);
    await axe(page);
    await screenshots(page, "approvals-empty");
    // The approved action goes through on the app's repeat.
    expect((await api("publish_now", { type: "post", id: post.body.id })).status).toBe(200);
    await page.close();
  }, 180_000);
});
