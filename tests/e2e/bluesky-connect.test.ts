import { describe, expect, it } from "vitest";
import { startBluesky, type Bluesky } from "../helpers/bluesky";
import { appInBrowser, axe, openSignedIn } from "./browser";
import { TestServer } from "./harness";

// Settings > Connections, "Connect Bluesky": the owner connects a Bluesky account of a real PDS
// with its handle and an app password, in the built app. No app credentials are set: Bluesky
// needs none.
const srv = new TestServer();
let ownerPassword = "";
let bluesky: Bluesky | undefined;
const EMAIL = "owner@example.com";

const app = appInBrowser(srv, async () => {
  bluesky = await startBluesky();
  Object.assign(srv.env, bluesky.env);
  ({ ownerPassword } = await srv.firstStart());
  return [bluesky];
});

describe("Connect Bluesky in Settings > Connections", () => {
  it("refuses the account's own password, then connects with an app password; the account is listed, connected and the default", async () => {
    const a = await bluesky!.account("owner");
    const page = await openSignedIn(await app.newPage(), `${srv.origin}/settings/connections`, EMAIL, ownerPassword);
    const connect = async (password: string) => {
      await page.getByLabel("Bluesky handle").fill(a.handle);
      await page.getByLabel("App password").fill(password);
      await page.getByRole("button", { name: "Connect Bluesky" }).click();
    };
    await connect(a.password);
    await expect
      .poll(() => page.locator(".error-box[role=alert]").textContent())
      .toMatch(/^That is the account's own password\. Create an app password in Bluesky/);
    expect(await page.getByRole("list", { name: "Bluesky accounts" }).count()).toBe(0);

    await connect(a.appPassword);
    const list = page.getByRole("list", { name: "Bluesky accounts" });
    await expect.poll(() => list.count()).toBe(1);
    const text = await list.textContent();
    expect(text).toContain(`@${a.handle}`);
    expect(text).toContain("Connected");
    expect(text).toContain("Default");
    expect(await page.content()).not.toContain(a.appPassword);
    await axe(page);
    await page.close();
  }, 180_000);
});
