import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import * as oauth from "oauth4webapi";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appInBrowser, axe, press, pressWithKeys, screenshots, signIn } from "./browser";
import { TestServer, freePort } from "./harness";
import { pdf, png } from "../helpers/media";

// The owner's side in a real browser (Debian's chromium) against a built server: sign-up and
// onboarding, Settings > Connections, exact-action approval, consent for an independent OAuth
// client (oauth4webapi), Disconnect, and an axe scan of every page.
const srv = new TestServer();
let ownerPassword = "";
let cliToken = "";

const shoot = screenshots;

const { newPage } = appInBrowser(srv, async () => {
  ({ ownerPassword } = await srv.firstStart());
  cliToken = JSON.parse((await srv.admin("issue-token", "--email", "owner@example.com", "--app", "Test Assistant")).stdout).access_token;
});

describe("the owner's pages", () => {
  it("the front door has the pages' header, leads to sign-in and names the interfaces", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/`);
    expect(await page.getByRole("banner").getByRole("link", { name: "Contentio" }).count()).toBe(1);
    expect(await page.getByRole("heading", { name: "For developers and assistants" }).count()).toBe(1);
    expect(await page.locator("code").allTextContents()).toContain(`${srv.origin}/mcp`);
    await axe(page);
    await shoot(page, "landing");
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL(/\/signin$/);
    // The API's error reference, the one public page besides the front door and sign-in.
    await page.goto(`${srv.origin}/docs/errors`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Error reference");
    await axe(page);
    await page.close();
  }, 60_000);

  it("a new person signs up, finishes onboarding and lands in Settings > Connections", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/settings/connections`);
    await expect.poll(() => page.url()).toContain("/signin?callbackUrl=%2Fsettings%2Fconnections");
    await axe(page);
    await shoot(page, "signin");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.getByLabel("E-mail").fill("alice@example.com");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => page.getByText("Use at least 10 characters.").count()).toBe(1);
    await axe(page);
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/onboarding/);
    await axe(page);
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByLabel("Sample post 1").fill("Shipping small changes daily beats a big launch.\n\nHere is why.");
    await page.getByLabel("Tone").fill("direct, warm");
    await page.getByLabel("Content pillars (optional)").fill("Shipping: how small teams ship\nHiring");
    await page.getByRole("button", { name: "Save and finish" }).click();
    // Beside the field, and in the summary that takes the focus and links to it.
    await expect.poll(() => page.locator("#name-error").textContent()).toBe("Enter your name.");
    expect(
      await page
        .locator(".error-summary")
        .getByRole("link", { name: /Enter your name/ })
        .getAttribute("href"),
    ).toBe("#name");
    expect(await page.getByLabel("Tone").inputValue()).toBe("direct, warm"); // nothing typed is lost
    expect(await page.getByLabel("Time zone").inputValue()).toBe("Europe/Berlin");
    await axe(page);
    await page.getByLabel("Your name").fill("Alice Example");
    await shoot(page, "onboarding");
    await page.getByRole("button", { name: "Save and finish" }).click();
    await page.waitForURL(/\/settings\/connections$/);
    await expect.poll(() => page.getByText("No AI app is connected").count()).toBe(1);
    // The session tells pages who is signed in, and nothing more (never the password hash).
    const session = await (await page.request.get(`${srv.origin}/api/auth/session`)).json();
    expect(Object.keys(session.user).sort()).toEqual(["email", "id", "image", "name"]);
    expect(session.user.email).toBe("alice@example.com");
    expect(JSON.stringify(session)).not.toMatch(/argon2|password/i);
    await axe(page);
    await page.close();
  }, 120_000);

  it("the owner turns on publishing, approves one exact deletion, and the app's repeat works once", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    await signIn(page, "owner@example.com", ownerPassword);
    await page.waitForURL(/\/settings\/connections$/);
    await expect.poll(() => page.getByText("Test Assistant").count()).toBeGreaterThan(0);
    const sw = page.getByRole("switch", { name: "Allow connected apps to publish, schedule and delete" });
    expect(await sw.getAttribute("aria-checked")).toBe("false");
    await pressWithKeys(page, sw); // keyboard alone
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("true");
    await axe(page);

    const draft = await srv.api("create_draft", { type: "post", body: "Boring deploys are a feature.\n(Really.)" }, cliToken);
    expect(draft.status).toBe(200);
    const tweet = await srv.api("create_draft", { type: "tweet", body: "Deploys should bore you.", post_draft_id: draft.body.id }, cliToken);
    expect(tweet.status).toBe(200);
    const first = await srv.api("delete_draft", { type: "post", id: draft.body.id }, cliToken);
    expect(first.status).toBe(403);
    expect(first.body.error.code).toBe("confirmation_required");
    const url: string = first.body.error.confirmation.url;

    await page.goto(`${srv.origin}/settings/connections`);
    await expect.poll(() => page.getByRole("link", { name: /Test Assistant wants to delete this draft/ }).count()).toBe(1);
    await shoot(page, "connections");
    await page.goto(url);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Test Assistant wants to delete this post draft");
    expect(await page.locator(".post-text").textContent()).toBe("Boring deploys are a feature.\n(Really.)");
    // The tweet that goes with the post is named too.
    expect(await page.getByRole("heading", { name: "Its tweets are deleted with it" }).count()).toBe(1);
    expect(await page.getByRole("listitem").filter({ hasText: "Deploys should bore you." }).count()).toBe(1);
    expect(await page.getByText("This cannot be undone.").count()).toBe(1);
    await axe(page);
    await shoot(page, "confirm");
    // Double-clickjacking: a site the owner visits opens this page under the second click of a
    // double-click. A click that lands as the page opens approves nothing; it asks for another.
    const popup = await page.context().newPage();
    await popup.goto(url);
    await popup.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => popup.getByRole("status").textContent()).toBe("Press it again to confirm.");
    await shoot(popup, "confirm-too-soon");
    expect((await srv.api("delete_draft", { type: "post", id: draft.body.id }, cliToken)).body.error?.code).toBe("confirmation_required");
    await popup.close();
    // Back to the owner's own tab: a tab left in the background gets no animation frames, and
    // the pointer's check that the button holds still waits on them.
    await page.bringToFront();
    await press(page.getByRole("button", { name: "Approve" }));
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toMatch(/^Approved\. Test Assistant can now complete the action; this approval expires at \d\d:\d\d/);
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0); // single decision
    await axe(page);
    await shoot(page, "confirm-approved");

    const second = await srv.api("delete_draft", { type: "post", id: draft.body.id }, cliToken);
    expect(second.status).toBe(200);
    expect(second.body.deleted).toBe(true);
    const third = await srv.api("delete_draft", { type: "post", id: draft.body.id }, cliToken);
    expect(third.status).not.toBe(200); // the approval was used up
    await page.goto(url);
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/used this approval/);

    // Another account sees nothing of it.
    const other = await newPage();
    await other.goto(url);
    await signIn(other, "alice@example.com", "correct horse battery");
    await other.waitForURL(url);
    await expect.poll(() => other.getByRole("heading", { level: 1 }).textContent()).toBe("Approval not found");
    await other.close();
    await page.close();
  }, 120_000);

  it("the owner sees an edit of a scheduled post beside the current version, with images and the time it keeps, and approves it", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    await signIn(page, "owner@example.com", ownerPassword);
    await page.waitForURL(/\/settings\/connections$/);
    const upload = await srv.api("upload_media", { data: (await png(40, 30)).toString("base64"), content_type: "image/png" }, cliToken);
    const image = upload.body.url;
    // The image is served to its owner's browser session (the approval page shows it).
    const served = await page.request.get(image);
    expect([served.status(), served.headers()["content-type"], served.headers()["x-content-type-options"]]).toEqual([200, "image/png", "nosniff"]);
    const draft = await srv.api("create_draft", { type: "post", title: "Launch notes", body: "Hello\n\nWe ship on Monday.", image_url: image }, cliToken);
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const schedule = await srv.api("schedule_content", { type: "post", id: draft.body.id, scheduled_for: at }, cliToken);
    expect(schedule.body.error.code).toBe("confirmation_required");
    // Every approval shows the image that goes with the text.
    await page.goto(schedule.body.error.confirmation.url);
    await expect.poll(() => page.getByRole("img", { name: "Image of this post" }).count()).toBe(1);
    // Loaded from this origin, whichever origin the draft names (APP_URL may change).
    expect(await page.getByRole("img", { name: "Image of this post" }).getAttribute("src")).toBe(new URL(image).pathname);
    expect(await page.getByRole("img", { name: "Image of this post" }).evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(40);
    await axe(page);
    await press(page.getByRole("button", { name: "Approve" }));
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Approved\./);
    expect((await srv.api("schedule_content", { type: "post", id: draft.body.id, scheduled_for: at }, cliToken)).status).toBe(200);

    const edit = { type: "post", id: draft.body.id, body: "Hello\n\nWe ship on Tuesday instead.", image_url: null };
    const asked = await srv.api("update_draft", edit, cliToken);
    expect(asked.status).toBe(403);
    expect(asked.body.error.code).toBe("confirmation_required");
    await page.goto(asked.body.error.confirmation.url);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Test Assistant wants to change this scheduled post in the sandbox");
    const current = page.getByRole("region", { name: "Current" });
    const proposed = page.getByRole("region", { name: "Proposed" });
    expect(await current.locator(".post-text").textContent()).toBe("Hello\n\nWe ship on Monday.");
    expect(await proposed.locator(".post-text").textContent()).toBe("Hello\n\nWe ship on Tuesday instead.");
    expect(await current.getByRole("img", { name: "Image of the current version" }).count()).toBe(1);
    expect(await proposed.getByText("No image").count()).toBe(1);
    expect(await proposed.getByRole("heading", { name: "Text changed" }).count()).toBe(1);
    expect(await proposed.getByRole("heading", { name: "Title changed" }).count()).toBe(0);
    // The schedule it keeps, in the owner's time zone and in UTC (the owner's zone is UTC here).
    expect(await page.getByText(/^Stays scheduled for .*UTC/).count()).toBe(1);
    await axe(page);
    await shoot(page, "confirm-edit");
    await press(page.getByRole("button", { name: "Approve" }));
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Approved\./);
    const done = await srv.api("update_draft", edit, cliToken);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: "scheduled", scheduled_for: at });
    // Publishing it now: the approval says now, not the time it was scheduled for.
    const now = await srv.api("publish_now", { type: "post", id: draft.body.id }, cliToken);
    expect(now.body.error.code).toBe("confirmation_required");
    await page.goto(now.body.error.confirmation.url);
    const whenRow = page.locator("dt", { hasText: /^When$/ }).locator("xpath=following-sibling::dd[1]");
    await expect.poll(() => whenRow.textContent()).toMatch(/^As soon as Test Assistant repeats its request, before /);
    expect(await page.getByText(/Stays scheduled/).count()).toBe(0);
    await page.close();
  }, 120_000);

  it("an approval shows every thread part in order with its images, and a post's document with its page count", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    await signIn(page, "owner@example.com", ownerPassword);
    await page.waitForURL(/\/settings\/connections$/);
    const up = async (data: Buffer, content_type: string, extra: Record<string, string> = {}) =>
      (await srv.api("upload_media", { data: data.toString("base64"), content_type, ...extra }, cliToken)).body;
    const img = await up(await png(20, 20), "image/png", { alt_text: "A bar chart" });
    const doc = await up(await pdf(3), "application/pdf", { filename: "deck.pdf" });
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const tweet = await srv.api(
      "create_draft",
      { type: "tweet", body: "Part one", thread: ["Part two", { text: "Part three", image_urls: [img.url] }] },
      cliToken,
    );
    const ask = await srv.api("schedule_content", { type: "tweet", id: tweet.body.id, scheduled_for: at }, cliToken);
    expect(ask.body.error.code).toBe("confirmation_required");
    await page.goto(ask.body.error.confirmation.url);
    const parts = page.getByRole("listitem").filter({ hasText: /^Part (two|three)/ });
    await expect.poll(() => parts.count()).toBe(2);
    expect(await parts.nth(0).getAttribute("aria-label")).toBe("Part 2 of 3");
    expect(await parts.nth(1).getByRole("img", { name: "A bar chart" }).getAttribute("src")).toBe(new URL(img.url).pathname);
    // Its description is posted with it: shown as text, not only as the image's alt.
    expect(await parts.nth(1).locator("figcaption").innerText()).toContain("Posted with the description: “A bar chart”");
    await axe(page);
    await shoot(page, "confirm-thread");
    const post = await srv.api("create_draft", { type: "post", body: "Deck", document_url: doc.url, document_title: "Q3 review" }, cliToken);
    const ask2 = await srv.api("schedule_content", { type: "post", id: post.body.id, scheduled_for: at }, cliToken);
    await page.goto(ask2.body.error.confirmation.url);
    await expect.poll(() => page.locator(".document").textContent()).toContain("Q3 review · 3 pages");
    expect(await page.getByRole("link", { name: "Open deck.pdf" }).getAttribute("href")).toBe(new URL(doc.url).pathname);
    await axe(page);
    await page.close();
  }, 120_000);

  it("an independent OAuth client connects through consent, calls the API, and Disconnect stops it", async () => {
    let callback: URL | undefined;
    const cbPort = await freePort();
    const cb = http.createServer((req, res) => {
      const u = new URL(req.url!, `http://127.0.0.1:${cbPort}`);
      if (u.pathname === "/callback") callback = u; // not the browser's /favicon.ico
      res.end("ok");
    });
    await new Promise<void>((r) => cb.listen(cbPort, "127.0.0.1", r));
    try {
      const issuer = new URL(srv.origin);
      const opts = { [oauth.allowInsecureRequests]: true };
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...opts, algorithm: "oauth2" }));
      const redirectUri = `http://127.0.0.1:${cbPort}/callback`;
      const client = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(
          as,
          { client_name: "Indie Client", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" },
          opts,
        ),
      );
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const authorize = new URL(as.authorization_endpoint!);
      for (const [k, v] of Object.entries({
        client_id: client.client_id,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "email",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        resource: `${srv.origin}/api/v1`,
      })) {
        authorize.searchParams.set(k, v);
      }
      const page = await newPage();
      const res = await page.goto(authorize.toString());
      expect(page.url()).toContain("/signin"); // signed out: sign in, then back to the same request
      await signIn(page, "owner@example.com", ownerPassword);
      await page.waitForURL((u) => u.pathname === "/oauth/authorize");
      expect(res?.status()).toBeLessThan(400);
      const consent = await page.request.get(authorize.toString());
      expect(consent.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(consent.headers()["x-frame-options"]).toBe("DENY");
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toMatch(/Connect Indie Client\s*Unverified/);
      expect(await page.getByText(`127.0.0.1:${cbPort}`).count()).toBeGreaterThan(0);
      expect(await page.getByText("Signed in as owner@example.com").count()).toBe(1);
      await axe(page);
      await shoot(page, "consent");
      await press(page.getByRole("button", { name: "Allow" }));
      await expect.poll(() => callback?.pathname).toBe("/callback");
      // The app's server saw the request before the browser finished loading its answer:
      // a navigation started now would be cut short by that one.
      await page.waitForURL((u) => u.port === String(cbPort) && u.pathname === "/callback");
      const params = oauth.validateAuthResponse(as, client, callback!, state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, opts),
      );
      const ok = await srv.api("search_content", {}, tokens.access_token);
      expect(ok.status).toBe(200);

      await page.goto(`${srv.origin}/settings/connections`);
      const row = page.locator("li", { hasText: "Indie Client" });
      expect(await row.getByText("Unverified").count()).toBe(1);
      expect(await row.getByText(`Redirects to 127.0.0.1:${cbPort}`).count()).toBe(1);
      await row.getByRole("button", { name: "Disconnect" }).first().click();
      const dialog = page.getByRole("dialog");
      expect(await dialog.textContent()).toContain("Disconnect Indie Client? It will lose access immediately.");
      await press(dialog.getByRole("button", { name: "Disconnect" }));
      await expect.poll(() => page.getByRole("status").textContent()).toContain("Disconnected");
      expect((await srv.api("search_content", {}, tokens.access_token)).status).toBe(401);
      expect((await srv.api("search_content", {}, cliToken)).status).toBe(200); // only that app

      // Cancel sends access_denied with the state back to the app.
      callback = undefined;
      await page.goto(authorize.toString());
      await page.getByRole("button", { name: "Cancel" }).click();
      await expect.poll(() => callback?.searchParams.get("error")).toBe("access_denied");
      expect(callback!.searchParams.get("state")).toBe(state);
      expect(callback!.searchParams.get("iss")).toBe(srv.origin);
      await page.close();
    } finally {
      cb.close();
    }
  }, 120_000);

  it("without app credentials, the pages call the sandbox the sandbox, never LinkedIn or X, and say how to connect the network", async () => {
    // What would tell the owner that a post goes to a network: "to LinkedIn", "on X".
    const sentTo = async (page: Page) => (await page.locator("body").innerText()).match(/\b(to|on) (LinkedIn|X)\b/g) ?? [];
    const page = await newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fcontent`);
    await signIn(page, "owner@example.com", ownerPassword);
    // The first start's owner has saved no profile: home sends them to onboarding (first-run.test.ts).
    await page.waitForURL(/\/onboarding\?next=%2Fcontent$/);
    const post = (await srv.api("create_draft", { type: "post", body: "Where does this one go?" }, cliToken)).body.id;
    const tweet = (await srv.api("create_draft", { type: "tweet", body: "And this tweet?" }, cliToken)).body.id;

    await page.goto(`${srv.origin}/content/post/${post}`);
    expect(await page.locator(".meta .badge").first().textContent()).toBe("Sandbox post");
    // One short notice, the set-up one click away.
    const note = page.getByRole("note", { name: "Sandbox mode" });
    expect(await note.textContent()).toMatch(
      /Sandbox mode: LinkedIn is not set up, so posts stay in this service's sandbox.*LINKEDIN_CLIENT_ID.*LINKEDIN_CLIENT_SECRET/,
    );
    expect(await note.getByText("LINKEDIN_CLIENT_ID").isVisible()).toBe(false);
    // The link is behind the notice's disclosure, one click away.
    await note.getByText("How to set up LinkedIn").click();
    expect(await note.getByRole("link", { name: "Settings > Connections" }).getAttribute("href")).toBe("/settings/connections");
    expect(await sentTo(page)).toEqual([]);
    await axe(page);
    await shoot(page, "item-sandbox");
    await page.getByRole("button", { name: "Publish now", exact: true }).click();
    const dialog = page.getByRole("dialog");
    expect(await dialog.textContent()).toContain(
      "Publish this post to the sandbox (LinkedIn is not set up: posts stay in this service) now? It cannot be undone.",
    );
    await shoot(page, "item-sandbox-dialog");
    await press(dialog.getByRole("button", { name: "Publish now" }));
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Published.");
    expect(await page.getByRole("link", { name: "see it in the sandbox" }).getAttribute("href")).toMatch(new RegExp(`^${srv.origin}/sandbox/pronet/`));
    expect(await sentTo(page)).toEqual([]);
    await shoot(page, "item-sandbox-published");

    await page.goto(`${srv.origin}/content/tweet/${tweet}`);
    expect(await page.locator(".meta .badge").first().textContent()).toBe("Sandbox tweet");
    expect(await page.getByRole("note", { name: "Sandbox mode" }).textContent()).toMatch(
      /X is not set up, so tweets stay in this service's sandbox.*X_CLIENT_ID/,
    );
    await page.getByRole("button", { name: "Publish now", exact: true }).click();
    expect(await page.getByRole("dialog").textContent()).toContain("Publish this tweet to the sandbox (X is not set up: tweets stay in this service) now?");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

    // The list, the calendar and an app's approval request name the sandbox too.
    const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const asked = await srv.api("schedule_content", { type: "tweet", id: tweet, scheduled_for: at }, cliToken);
    await page.goto(asked.body.error.confirmation.url);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Test Assistant wants to schedule this tweet in the sandbox");
    expect(
      await page
        .locator("dt", { hasText: /^Platform$/ })
        .locator("xpath=following-sibling::dd[1]")
        .textContent(),
    ).toMatch(/^the sandbox \(X is not set up: tweets stay in this service\)/);
    expect(await sentTo(page)).toEqual([]);
    await press(page.getByRole("button", { name: "Approve" }));
    await expect.poll(() => page.getByRole("status").textContent()).toMatch(/^Approved\./);
    expect((await srv.api("schedule_content", { type: "tweet", id: tweet, scheduled_for: at }, cliToken)).status).toBe(200);
    await page.goto(`${srv.origin}/content`);
    const row = page.getByRole("list", { name: "Drafts" }).locator(":scope > li").filter({ hasText: "And this tweet?" });
    expect(await row.locator(".badge").first().textContent()).toBe("Sandbox tweet");
    await page.goto(`${srv.origin}/calendar?view=month&d=${at.slice(0, 10)}`);
    const entry = page.locator(".cal-days").getByRole("link", { name: /And this tweet\?/ });
    // The words before the network, where a narrow day cuts the line.
    expect(await entry.textContent()).toMatch(/^\d\d:\d\d And this tweet\? · Sandbox tweet/);
    // The sandbox's own colour and name on the calendar, never LinkedIn's or X's.
    expect(await entry.locator("xpath=..").getAttribute("class")).toContain("net-sandbox");
    expect(await entry.locator(".net").textContent()).toBe("Sandbox tweet");
    expect(await page.locator(".cal-days .net").allTextContents()).not.toContain("X");
    // The drafts without a time beside the calendar too.
    const beside = await page.getByRole("complementary", { name: "Not scheduled yet" }).locator(".net").allTextContents();
    expect(beside.length).toBeGreaterThan(0);
    expect(beside.filter((n) => !/^Sandbox (post|tweet)$/.test(n))).toEqual([]);
    expect(await sentTo(page)).toEqual([]);
    await page.close();
  }, 120_000);

  it("the owner publishes from an item's page; the sandbox post links back to that page for its owner only", async () => {
    const draft = await srv.api("create_draft", { type: "post", body: "Sandbox round trip." }, cliToken);
    const page = await newPage();
    await page.goto(`${srv.origin}/content/post/${draft.body.id}`);
    await signIn(page, "owner@example.com", ownerPassword);
    await page.waitForURL(`${srv.origin}/content/post/${draft.body.id}`);
    const framing = await page.request.get(page.url());
    expect(framing.headers()["x-frame-options"]).toBe("DENY");
    await page.getByRole("button", { name: "Publish now", exact: true }).click();
    await press(page.getByRole("dialog").getByRole("button", { name: "Publish now" }));
    await expect.poll(() => page.getByRole("status").textContent()).toBe("Published.");
    await page.getByRole("link", { name: "see it in the sandbox" }).click();
    await page.waitForURL(/\/sandbox\/pronet\//);
    const sandboxUrl = page.url();
    await page.getByRole("link", { name: "Open its page in your content" }).click();
    await page.waitForURL(`${srv.origin}/content/post/${draft.body.id}`);
    // Anyone with the link sees the post, but only its owner gets the way back.
    const other = await newPage();
    await other.goto(`${srv.origin}/signin`);
    await signIn(other, "alice@example.com", "correct horse battery");
    await other.waitForURL(/\/content$/);
    await other.goto(sandboxUrl);
    expect(await other.getByText("Sandbox round trip.").count()).toBe(1);
    expect(await other.getByRole("link", { name: "Open its page in your content" }).count()).toBe(0);
    const theirs = await other.goto(`${srv.origin}/content/post/${draft.body.id}`);
    expect(theirs?.status()).toBe(404);
    expect(await other.content()).not.toContain("Sandbox round trip.");
    await other.close();
    await page.close();
  }, 120_000);

  it("leaves the API and discovery documents alone, and refuses framing only on pages", async () => {
    const meta = await fetch(`${srv.origin}/.well-known/oauth-authorization-server`, { redirect: "manual" });
    expect(meta.status).toBe(200);
    expect(meta.headers.get("x-frame-options")).toBeNull();
    const unknown = await fetch(`${srv.origin}/oauth/authorize?client_id=00000000-0000-4000-8000-000000000000`, { redirect: "manual" });
    expect(unknown.status).toBe(200); // an error page, never a redirect
    expect(await unknown.text()).toContain("unknown client_id");
  });

  it("refuses framing on every page, so that no button of the owner's can be clicked through a frame", async () => {
    const pages = fs
      .readdirSync("app", { recursive: true, encoding: "utf8" })
      .filter((file) => path.basename(file) === "page.tsx")
      .map((file) => "/" + path.dirname(file).replace(/\[[^\]]+\]/g, "x"))
      .map((route) => route.replace(/^\/\.$/, "/"));
    expect(pages).toContain("/queue");
    for (const route of pages) {
      const res = await fetch(`${srv.origin}${route}`, { redirect: "manual" });
      expect([route, res.headers.get("x-frame-options")]).toEqual([route, "DENY"]);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
  });
});
