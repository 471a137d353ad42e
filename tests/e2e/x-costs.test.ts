import { describe, expect, it } from "vitest";
import { fakePlatformEnv, startFakePlatforms, type FakePlatforms } from "../helpers/fake-platforms";
import { appInBrowser, openSignedIn } from "./browser";
import { TestServer } from "./harness";

// What X charges, said before the owner approves, in the built app: the composer as the
// owner types a tweet, and the approval page of an app's publish_now (X connected in the
// browser, against the fake of X).

const srv = new TestServer();
let fake: FakePlatforms;
let token = "";
const WRITER = { email: "payer@example.com", password: "correct horse battery" };

const { newPage } = appInBrowser(srv, async () => {
  fake = await startFakePlatforms();
  fake.signIn.x.person = { sub: "2244994945", name: "Wendy on X", username: "wendy_w" };
  delete srv.env.REDIS_URL;
  Object.assign(srv.env, fakePlatformEnv(fake));
  await srv.admin("create-user", "--email", WRITER.email, "--password", WRITER.password, "--name", "Wendy Writer", "--plan", "creator", "--allow-publishing");
  token = JSON.parse((await srv.admin("issue-token", "--email", WRITER.email, "--app", "Publishing Assistant")).stdout).access_token;
  return [fake];
});

describe("the price on X before approval", () => {
  it("the composer and the approval page say $0.20 for a tweet with a link and $0.015 without", async () => {
    const page = await newPage();
    await openSignedIn(page, `${srv.origin}/settings/connections`, WRITER.email, WRITER.password);
    await page.getByRole("button", { name: "Connect X" }).click();
    await page.waitForURL(/\/settings\/connections$/);
    await expect.poll(() => page.getByRole("list", { name: "X accounts" }).getByText("Connected", { exact: true }).count()).toBe(1);

    await page.goto(`${srv.origin}/write`);
    await page.getByRole("checkbox", { name: "X", exact: true }).check();
    await page.locator("#part-0").fill("Read this: https://example.com/launch");
    await expect.poll(() => page.getByTestId("x-cost").textContent()).toBe("About $0.20 on X: it contains a link.");
    await page.locator("#part-0").fill("No link at all");
    await expect.poll(() => page.getByTestId("x-cost").textContent()).toBe("About $0.015 on X.");

    for (const [body, price] of [
      ["Launch notes https://example.com/notes", "about $0.20 on X: it contains a link"],
      ["Just words", "about $0.015 on X"],
    ]) {
      const d = (await srv.api("create_draft", { type: "tweet", body }, token)).body as { id: string };
      const asked = await srv.api("publish_now", { type: "tweet", id: d.id }, token);
      expect(asked.body.error?.code, JSON.stringify(asked.body)).toBe("confirmation_required");
      await page.goto(asked.body.error.confirmation.url);
      await expect.poll(() => page.getByTestId("x-price").textContent()).toBe(price);
      // preview_publish, which an assistant calls before asking, says the same price and month.
      const preview = (await srv.api("preview_publish", { type: "tweet", id: d.id }, token)).body as {
        cost: { text: string };
        spend: { after_usd: number };
      };
      expect(preview.cost.text).toBe(price);
      expect(await page.getByTestId("x-month").textContent()).toBe(`About $0.00 spent; about ${price.slice(6, price.indexOf(" on X"))} with this.`);
      expect(preview.spend.after_usd).toBe(Number(price.slice(7, price.indexOf(" on X"))));
    }
    expect(fake.badRequests).toEqual([]);
  });
});
