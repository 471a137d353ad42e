import { describe, expect, it } from "vitest";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { axe, openSignedIn, press, pressWithKeys, screenshots, userInBrowser } from "./browser";
import { TestServer } from "./harness";

// Settings > Webhooks in a real browser against the built server, whose own deliverer sends
// to a receiver on loopback: add an endpoint (its secret shown once), send a test event that
// verifies with that secret, resend it, pause, rotate, delete; axe on the way; the phone width.
const srv = new TestServer();
const EMAIL = "webhooks-owner@example.com";
const ownerPassword = "correct horse battery";
let rx: Receiver;

const app = userInBrowser(srv, { email: EMAIL, password: ownerPassword }, async () => {
  rx = await startReceiver();
  return [rx];
});

async function until(check: () => boolean | Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("Settings > Webhooks", () => {
  it("adds, tests, resends, pauses, rotates and deletes an endpoint", async () => {
    const page = await openSignedIn(await app.newPage(), `${srv.origin}/settings/webhooks`, EMAIL, ownerPassword);
    await expect.poll(() => page.getByText("No endpoint yet.").count()).toBe(1);
    await axe(page);
    await page.getByLabel("URL", { exact: true }).fill(`${rx.url}/page`);
    await page.getByLabel("Description (optional)").fill("Zapier <b>zap</b>");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secretBox = page.locator("code.secret");
    await expect.poll(() => secretBox.count()).toBe(1);
    const secret = (await secretBox.textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => page.getByText(`${rx.url}/page`).count()).toBeGreaterThan(0);
    expect(await page.getByText("Zapier <b>zap</b>").count()).toBe(1); // text, never markup
    await axe(page);
    await screenshots(page, "webhooks");

    await page.getByRole("button", { name: "Send test event" }).click();
    await page.waitForURL(/done=test/);
    await until(() => rx.ok("webhook.test").length === 1);
    const [first] = rx.ok("webhook.test");
    expect(rx.verify(first, secret).data).toMatchObject({ message: expect.any(String) });
    // The secret is not on the page any more once it is reloaded.
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    await until(async () => (await page.reload(), (await page.getByText("Delivered").count()) > 0));
    await page.getByText(/^Delivery log/).click(); // folded while everything was delivered
    await axe(page);
    await page.getByRole("button", { name: /^Resend webhook\.test/ }).click();
    await page.waitForURL(/done=resent/);
    await until(() => rx.ok("webhook.test").length === 2);
    expect(rx.ok("webhook.test")[1].headers["webhook-id"]).toBe(first.headers["webhook-id"]);

    await press(page.getByRole("switch", { name: "Send events to this endpoint" }));
    await page.waitForURL(/done=paused/);
    await expect.poll(() => page.getByText("Paused", { exact: true }).count()).toBe(1);
    await axe(page);

    await page.getByRole("button", { name: "Rotate secret" }).click();
    await press(page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }));
    await expect.poll(async () => (await secretBox.count()) === 1 && (await secretBox.textContent()) !== secret).toBe(true);
    await expect.poll(() => page.getByText(/The previous secret also signs until/).count()).toBe(1);

    // A phone: nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole("button", { name: "Delete" }).click();
    await press(page.getByRole("dialog").getByRole("button", { name: "Delete" }));
    await page.waitForURL(/done=deleted/);
    await expect.poll(() => page.getByText("No endpoint yet.").count()).toBe(1);
    await page.close();
  }, 120_000);
});
