import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appInBrowser, axe, forgedForm, openSignedIn, pressWithKeys, screenshots } from "./browser";
import { TestServer } from "./harness";

// Settings > Connections as a first-time owner meets it (issue 43): without LinkedIn or X app
// credentials, how to set each up; the MCP URL to give an assistant; and a personal API token
// made, used and revoked in the page, which a forged post cannot make.
const srv = new TestServer();
let ownerPassword = "";
const EMAIL = "owner@example.com";
const PAGE = () => `${srv.origin}/settings/connections`;

const app = appInBrowser(srv, async () => {
  ({ ownerPassword } = await srv.firstStart());
});

const signedIn = async (): Promise<Page> => openSignedIn(await app.newPage(), PAGE(), EMAIL, ownerPassword);

/** The connected apps and tokens the page lists, by name. */
const listed = (page: Page) =>
  page
    .getByRole("list", { name: "Connected apps and tokens" })
    .locator(":scope > li strong:first-child")
    .allTextContents()
    .catch(() => [] as string[]);

describe("Settings > Connections for a first-time owner", () => {
  it("without app credentials, LinkedIn and X each say how to set them up: variables, portal, the exact redirect URL", async () => {
    const page = await signedIn();
    for (const [name, id, secret, provider, portal] of [
      ["LinkedIn", "LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET", "linkedin", "https://www.linkedin.com/developers/apps"],
      ["X", "X_CLIENT_ID", "X_CLIENT_SECRET", "twitter", "https://developer.x.com/en/portal/dashboard"],
    ]) {
      const setup = page.getByRole("group", { name: `Set up ${name}` });
      const text = await setup.textContent();
      expect(text).toContain(id);
      expect(text).toContain(secret);
      expect(text).toContain("built-in sandbox");
      expect(await setup.getByLabel(`Redirect URL to register with ${name}`).inputValue()).toBe(`${srv.origin}/api/auth/callback/${provider}`);
      expect(await setup.getByRole("link").first().getAttribute("href")).toBe(portal);
    }
    // No Connect button until the credentials are set.
    expect(await page.getByRole("button", { name: /^Connect (LinkedIn|X)$/ }).count()).toBe(0);
    await axe(page);
    await screenshots(page, "connections-first-time");
    await page.close();
  }, 120_000);

  it("the MCP URL is copied with one press, and the page says so", async () => {
    const page = await signedIn();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: srv.origin });
    expect(await page.getByLabel("MCP server URL").inputValue()).toBe(`${srv.origin}/mcp`);
    const card = page.getByRole("region", { name: "Connect an assistant" });
    for (const client of ["Claude", "ChatGPT", "VS Code", "Cursor"]) expect(await card.textContent()).toContain(client);
    await card.getByRole("button", { name: "Copy the MCP server URL" }).focus();
    await page.keyboard.press("Enter"); // keyboard alone
    // Said in a polite live region beside the button (not a status role: pages keep that for outcomes).
    const said = card.locator(".copy-said");
    expect(await said.getAttribute("aria-live")).toBe("polite");
    await expect.poll(() => said.textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${srv.origin}/mcp`);
    await axe(page);
    await page.close();
  }, 120_000);

  it("with the keyboard alone, the owner makes a token, which works once, is shown once, and stops on Revoke", async () => {
    const page = await signedIn();
    await page.getByLabel("Name").focus();
    await page.keyboard.type("Publishing script");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("token-days");
    await page.keyboard.press("ArrowDown"); // 30 days -> 90 days
    expect(await page.getByLabel("Expires after").inputValue()).toBe("90");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    const made = page.getByRole("status").filter({ hasText: "it will not be shown again" });
    await expect.poll(() => made.count()).toBe(1);
    // Focus lands on the answer; the token field and its Copy button follow.
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("token-box"))).toBe(true);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("new-token");
    const token = await page.getByLabel("Your new token").inputValue();
    expect(token).toMatch(/^cto_at_[\w-]{40,}$/);
    expect(page.url()).toBe(PAGE()); // never in the address
    await axe(page);
    await screenshots(page, "connections-token-made");

    const works = await srv.api("search_content", { query: "hello" }, token);
    expect(works.status).toBe(200);

    // Listed as a personal token with its end; after a reload the value is gone for good.
    await page.reload();
    await expect.poll(() => listed(page)).toContain("Publishing script");
    const row = page.getByRole("list", { name: "Connected apps and tokens" }).locator(":scope > li").filter({ hasText: "Publishing script" });
    expect(await row.textContent()).toContain("Personal token");
    expect(await row.textContent()).toMatch(/Expires on \d{1,2} \w{3} \d{4}/);
    expect(await page.content()).not.toContain(token);

    await row.getByRole("button", { name: "Revoke" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    expect(await dialog.textContent()).toContain("Revoke the token “Publishing script”?");
    await pressWithKeys(page, dialog.getByRole("button", { name: "Revoke" }));
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("Token revoked.");
    expect(await listed(page)).not.toContain("Publishing script");
    const refused = await srv.api("search_content", { query: "hello" }, token);
    expect(refused.status).toBe(401);
    await axe(page);
    await page.close();
  }, 120_000);

  it("a name is required; the refusal says so and makes nothing", async () => {
    const page = await signedIn();
    await page.getByLabel("Name").fill("   ");
    await page.getByRole("button", { name: "Create token" }).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "Name the token" }).count()).toBe(1);
    expect(await page.getByLabel("Your new token").count()).toBe(0);
    await axe(page);
    await page.close();
  }, 120_000);

  it("a cross-site post of the token form makes nothing: another Origin, or no CSRF proof", async () => {
    const page = await signedIn();
    const form = await forgedForm(page, PAGE(), 'id="token-name"');
    const post = (name: string, opts: { origin?: string; csrf?: string }) => form.post({ name, days: "30" }, opts);
    const csrf = form.csrf;

    const fromElsewhere = await post("Forged elsewhere", { origin: "https://attacker.example", csrf });
    expect(fromElsewhere.text).not.toContain("cto_at_");
    const noProof = await post("Forged without proof", {});
    expect(noProof.text).not.toContain("cto_at_");
    expect(noProof.text).toContain("This page had expired, so no token was made.");
    const badProof = await post("Forged proof", { csrf: `${Date.now()}.AAAA` });
    expect(badProof.text).not.toContain("cto_at_");
    // The same post with the page's own proof and no Origin does make one: the forged ones
    // above reached the action and were refused there, not lost on the way.
    const genuine = await post("Genuine", { csrf });
    expect(genuine.text).toMatch(/cto_at_/);

    await page.reload();
    const names = await listed(page);
    expect(names).toContain("Genuine");
    for (const n of ["Forged elsewhere", "Forged without proof", "Forged proof"]) expect(names).not.toContain(n);
    await page.close();
  }, 120_000);
});
