import { describe, expect, it } from "vitest";
import { signInOnPds, startBluesky, type Bluesky } from "../helpers/bluesky";
import { appInBrowser, axe, openSignedIn } from "./browser";
import { TestServer } from "./harness";

// Settings > Connections, "Connect Bluesky": the owner connects a Bluesky account of a real PDS,
// in the built app: with atproto OAuth (the handle, then the PDS's own sign-in page), or with the
// handle and an app password. No app credentials are set: Bluesky needs none.
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
    await page.getByText("Use an app password instead").click();
    const connect = async (password: string) => {
      await page.getByLabel("Handle", { exact: true }).fill(a.handle);
      await page.getByLabel("App password").fill(password);
      await page.getByRole("button", { name: "Connect with the app password" }).click();
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

  it("connects with atproto OAuth: the handle, the PDS's own sign-in page, and back to Connections, connected", async () => {
    const a = await bluesky!.account("oauth");
    const page = await openSignedIn(await app.newPage(), `${srv.origin}/settings/connections`, EMAIL, ownerPassword);
    // Here the service and the PDS are both on localhost (one site, two ports), and the PDS's page
    // refuses an arrival from the same site (it takes cross-site ones, and typed addresses): the
    // browser is stopped on its way there and goes to the same address as if typed, as it
    // arrives from another site when deployed.
    let sent: string | undefined;
    await page.route(
      (u) => u.origin === new URL(bluesky!.pdsUrl).origin && u.pathname === "/oauth/authorize",
      async (route) => {
        if (sent) return route.continue();
        sent = route.request().url();
        await route.fulfill({ status: 204 }); // no content: the browser stays where it is
      },
    );
    await page.getByLabel("Bluesky handle").fill(a.handle);
    await page.getByRole("button", { name: "Connect Bluesky" }).click();
    await expect.poll(() => sent).toBeDefined();
    await page.goto(sent!);
    await signInOnPds(page, a);
    // Back through 127.0.0.1 (atproto's loopback rule) to the service's own address, where the owner's session is.
    await page.waitForURL(`${srv.origin}/settings/connections?done=bluesky#accounts`);
    await expect.poll(() => page.locator(".ok-box[role=status]").textContent()).toMatch(/^Bluesky account connected\./);
    const text = await page.getByRole("list", { name: "Bluesky accounts" }).textContent();
    expect(text).toContain(`@${a.handle}`);
    expect(text).not.toContain("Reconnect");
    await axe(page);

    // A way back that this owner did not start (a link someone sends): nothing is connected, and the page says why.
    await page.goto(`${srv.origin}/settings/connections/bluesky/callback?state=forged-state&iss=${encodeURIComponent(bluesky!.pdsUrl)}&code=cod-forged`);
    await expect
      .poll(() => page.locator(".error-box[role=alert]").textContent())
      .toBe(
        "This Bluesky sign-in is not one you started here, or it was already used or has expired; nothing was connected. Connect Bluesky again from Settings > Connections.",
      );
    await axe(page);
    await page.close();
  }, 180_000);
});
