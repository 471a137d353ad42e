import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/adapters/db";
import { authAccounts, users } from "@/drizzle/schema";
import { startFakeOAuth, type FakeOAuth } from "../helpers/fake-oauth-providers";
import { decodeQuotedPrintable, startSmtpCapture, type SmtpCapture } from "../helpers/smtp-capture";
import { appInBrowser, axe, screenshots } from "./browser";
import { TestServer } from "./harness";

// Signing in with LinkedIn (OpenID Connect), X (OAuth 2.0 + PKCE) and an e-mailed link, in a
// real browser against a built server whose provider endpoints point at local fakes.
// Asked for: every scope of the endpoints publishing calls (for X, those X's OpenAPI document
// names, media.write included); granted: LinkedIn writes them with commas, X with spaces.
const LINKEDIN_SCOPES = "openid profile email w_member_social";
const X_SCOPES = "tweet.read users.read tweet.write media.write offline.access";
const LENA = { sub: "li-member-Lena42", name: "Lena Linked", email: "lena@example.com" };
const srv = new TestServer();
let li: FakeOAuth;
let x: FakeOAuth;
let smtp: SmtpCapture;
const WRITER = { email: "writer@example.com", password: "correct horse battery" };

/** Every stored LinkedIn/X connection with its owner's e-mail. The browser tests run on PGlite
 *  (vitest.config.ts), whose files belong to the running server: it stops while the test reads them. */
async function storedAccounts() {
  await srv.stop();
  const d = await openDatabase({ dataDir: srv.env.DATA_DIR });
  try {
    return await d.db.select({ email: users.email, a: authAccounts }).from(authAccounts).innerJoin(users, eq(users.id, authAccounts.userId));
  } finally {
    await d.close();
    await srv.start();
  }
}

/** The writer signs in with e-mail and password on the sign-in page and lands in Settings > Connections. */
async function signInAsWriter(page: Page) {
  await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
  await page.locator("#email").fill(WRITER.email);
  await page.getByLabel("Password").fill(WRITER.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/settings\/connections$/);
}

/** A network's accounts and its buttons on Settings > Connections. */
const accountRow = (page: Page, name: string) =>
  page.locator("section[aria-labelledby=accounts] .network-accounts", { has: page.locator("h3", { hasText: new RegExp(`^${name}$`) }) });

const { newPage } = appInBrowser(srv, async () => {
  // An approved partner app: only those get LinkedIn refresh tokens, which the second test keeps.
  li = await startFakeOAuth("linkedin", LENA, { linkedinPartner: true });
  x = await startFakeOAuth("x", { sub: "2244994945", name: "Wendy on X", username: "wendy_w" });
  smtp = await startSmtpCapture();
  // Sign-in counters in this server's memory: in a Redis shared with other test runs, a rerun
  // within 15 minutes would find this file's accounts and loopback address already counted.
  delete srv.env.REDIS_URL;
  Object.assign(srv.env, {
    LINKEDIN_CLIENT_ID: "li-app",
    LINKEDIN_CLIENT_SECRET: "li-secret",
    LINKEDIN_OAUTH_URL: li.url,
    LINKEDIN_API_URL: li.url,
    X_CLIENT_ID: "x-app",
    X_CLIENT_SECRET: "x-secret",
    X_OAUTH_URL: x.url,
    X_API_URL: x.url,
    SMTP_URL: smtp.url,
    EMAIL_FROM: "Contentio <no-reply@contentio.test>",
  });
  // Before the first start, so no owner is made: a finished account with a password.
  await srv.admin("create-user", "--email", WRITER.email, "--password", WRITER.password, "--name", "Wendy Writer");
  return [li, x, smtp];
});

describe("signing in with LinkedIn, X and an e-mail link", () => {
  it("a new person signs in with LinkedIn: account created, LinkedIn connected with its tokens and scopes", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    await axe(page); // with all three sign-in methods shown
    await page.getByRole("button", { name: "LinkedIn" }).click();
    await page.waitForURL(/\/onboarding/);
    expect(await page.getByLabel("Your name").inputValue()).toBe("Lena Linked"); // from LinkedIn's profile
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByLabel("Sample post 1").fill("Small teams ship daily.\n\nHere is how we do it.");
    await page.getByLabel("Tone").fill("direct");
    await page.getByRole("button", { name: "Save and finish" }).click();
    await page.waitForURL(/\/settings\/connections$/);
    expect(await page.getByText("lena@example.com").count()).toBe(1); // signed in as the new account
    expect(await accountRow(page, "LinkedIn").getByRole("listitem").filter({ hasText: "Lena Linked" }).getByText("Connected", { exact: true }).count()).toBe(1);
    expect(await accountRow(page, "X").getByRole("button", { name: "Connect X" }).count()).toBe(1);
    await axe(page);

    const [auth] = li.authorizations;
    expect(auth.get("scope")).toBe(LINKEDIN_SCOPES);
    expect(auth.get("state")).toBeTruthy();
    expect(auth.get("redirect_uri")).toBe(`${srv.origin}/api/auth/callback/linkedin`);
    expect(li.tokenRequests).toHaveLength(1);
    expect(li.errors).toEqual([]);

    const rows = (await storedAccounts()).filter((r) => r.a.provider === "linkedin");
    expect(rows).toHaveLength(1);
    expect(rows[0].email).toBe("lena@example.com");
    expect(rows[0].a).toMatchObject({
      providerAccountId: LENA.sub,
      access_token: "linkedin-access-1",
      refresh_token: "linkedin-refresh-1",
      scope: LINKEDIN_SCOPES.replaceAll(" ", ","),
      handle: "Lena Linked",
      status: "connected",
    });
    expect(rows[0].a.id_token?.split(".")).toHaveLength(3);
    expect(rows[0].a.expires_at! * 1000).toBeGreaterThan(Date.now() + 59 * 24 * 3600_000); // LinkedIn tokens last 60 days
    await page.close();
  }, 180_000);

  it("signing in with LinkedIn again, without a new refresh token, keeps the stored one", async () => {
    li.issueRefreshToken = false;
    const page = await newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    await page.getByRole("button", { name: "LinkedIn" }).click();
    await page.waitForURL(/\/settings\/connections$/); // the same account, already set up
    expect(await page.getByText("lena@example.com").count()).toBe(1);
    expect(await accountRow(page, "LinkedIn").getByRole("listitem").filter({ hasText: "Lena Linked" }).getByText("Connected", { exact: true }).count()).toBe(1);
    expect(li.issued.at(-1)).toMatchObject({ access_token: "linkedin-access-2", refresh_token: undefined });

    const rows = (await storedAccounts()).filter((r) => r.a.provider === "linkedin");
    expect(rows).toHaveLength(1);
    expect(rows[0].a).toMatchObject({ access_token: "linkedin-access-2", refresh_token: "linkedin-refresh-1", scope: LINKEDIN_SCOPES.replaceAll(" ", ",") });
    await page.close();
  }, 180_000);

  it("a person signed in with e-mail and password connects X from Settings", async () => {
    const page = await newPage();
    await signInAsWriter(page);
    await accountRow(page, "X").getByRole("button", { name: "Connect X" }).click();
    await page.waitForURL(/\/settings\/connections$/);
    await expect
      .poll(() => accountRow(page, "X").getByRole("listitem").filter({ hasText: "@wendy_w" }).getByText("Connected", { exact: true }).count())
      .toBe(1);
    expect(await page.getByText(WRITER.email).count()).toBe(1); // still the same account
    await axe(page);

    const [auth] = x.authorizations;
    expect(auth.get("scope")).toBe(X_SCOPES);
    expect(auth.get("code_challenge_method")).toBe("S256");
    expect(x.tokenRequests[0].form.get("code_verifier")).toBeTruthy(); // the fake checked it against the challenge
    expect(x.tokenRequests[0].authorization).toMatch(/^Basic /);
    expect(x.errors).toEqual([]);

    const rows = (await storedAccounts()).filter((r) => r.a.provider === "twitter");
    expect(rows).toHaveLength(1);
    expect(rows[0].email).toBe(WRITER.email);
    expect(rows[0].a).toMatchObject({
      providerAccountId: "2244994945",
      access_token: "x-access-1",
      refresh_token: "x-refresh-1",
      scope: X_SCOPES,
      handle: "@wendy_w",
      status: "connected",
    });

    // A second X account: signed in to another one on X, "Add another X account" adds it
    // beside the first, which stays the default until the owner makes the new one default.
    x.person = { sub: "9988776655", name: "Wendy's studio", username: "wendy_studio" };
    await accountRow(page, "X").getByRole("button", { name: "Add another X account" }).click();
    await page.waitForURL(/\/settings\/connections$/);
    const items = accountRow(page, "X").getByRole("listitem");
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toMatch(/@wendy_w.*Default/);
    await items.filter({ hasText: "@wendy_studio" }).getByRole("button", { name: /^Make/ }).click();
    await page.waitForURL(/done=default/);
    expect(await items.nth(0).textContent()).toMatch(/@wendy_studio.*Default/);
    await axe(page);
    await screenshots(page, "connections-two-x-accounts");
    expect((await storedAccounts()).filter((r) => r.a.provider === "twitter").map((r) => r.a.providerAccountId)).toEqual(
      expect.arrayContaining(["2244994945", "9988776655"]),
    );
    x.person = { sub: "2244994945", name: "Wendy on X", username: "wendy_w" };
    await page.close();
  }, 180_000);

  it("signing in with LinkedIn on the sign-in page while signed in switches accounts: it never links that LinkedIn to the signed-in one", async () => {
    // Whoever left a session in this browser (a shared computer, a replayed sign-in link) must
    // not end up holding the next person's LinkedIn: the sign-in page signs in as that LinkedIn.
    li.person = { sub: "li-member-Mo7", name: "Mo Next", email: "mo@example.com" };
    const page = await newPage();
    await signInAsWriter(page);
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    expect(await page.getByText("You are signed in already").count()).toBe(1);
    await page.getByRole("button", { name: "LinkedIn" }).click();
    await page.waitForURL(/\/onboarding/); // a new account, Mo's
    expect(await page.getByLabel("Your name").inputValue()).toBe("Mo Next");
    const rows = (await storedAccounts()).filter((r) => r.a.provider === "linkedin");
    expect(rows.filter((r) => r.email === WRITER.email)).toEqual([]);
    expect(rows.find((r) => r.a.providerAccountId === "li-member-Mo7")?.email).toBe("mo@example.com");
    await page.close();
  }, 180_000);

  it("a new person cannot start with X alone (X shares no e-mail): the sign-in page says why", async () => {
    x.person = { sub: "9999", name: "Stranger", username: "stranger" };
    const page = await newPage();
    await page.goto(`${srv.origin}/signin`);
    await page.getByRole("button", { name: "X", exact: true }).click();
    await page.waitForURL(/\/signin\?error=EmailRequired/);
    expect(await page.getByText("X does not share your e-mail address, so a new account cannot start with X.").count()).toBe(1);
    await axe(page);
    expect(x.errors).toEqual([]);
    const rows = await storedAccounts();
    expect(rows.filter((r) => r.a.providerAccountId === "9999")).toEqual([]);
    await page.close();
  }, 180_000);

  it("an e-mailed sign-in link signs the person in, once, after they confirm the account it names", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/signin?callbackUrl=%2Fsettings%2Fconnections`);
    await page.locator("#link-email").fill("lena@example.com");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.waitForURL(/\/signin\?sent=1/);
    expect(await page.getByText("Check your e-mail: we sent you a sign-in link.").count()).toBe(1);
    await axe(page);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(1);
    const mail = smtp.mails[0];
    expect(mail.to).toEqual(["lena@example.com"]);
    expect(mail.from).toBe("no-reply@contentio.test");
    const link = /http:\/\/localhost:\d+\/api\/auth\/callback\/nodemailer\?\S+/.exec(decodeQuotedPrintable(mail.raw))?.[0];
    expect(link).toBeDefined();
    expect(new URL(link!).origin).toBe(srv.origin);

    // Opening the link names the account and signs in only when asked to: a link someone
    // else requested, sent to this browser by a mere navigation, signs nobody in.
    await page.goto(link!);
    await page.waitForURL(/\/signin\/link\?/);
    expect(await page.getByRole("heading", { name: "Sign in as lena@example.com" }).count()).toBe(1);
    await axe(page);
    expect((await page.context().cookies()).some((c) => c.name.includes("session-token"))).toBe(false);
    await page.getByRole("button", { name: "Sign in as lena@example.com" }).click();
    await page.waitForURL(/\/settings\/connections$/);
    expect(await page.getByText("lena@example.com").count()).toBe(1);
    expect(await accountRow(page, "LinkedIn").getByRole("listitem").filter({ hasText: "Lena Linked" }).getByText("Connected", { exact: true }).count()).toBe(1);

    // Another site cannot press that button for the visitor: its POST carries another Origin.
    const forged = await fetch(`${srv.origin}/signin/link/confirm`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: new URL(link!).searchParams.get("token")!, email: "lena@example.com" }),
    });
    expect(forged.status).toBe(303);
    expect(forged.headers.get("location")).toBe(`${srv.origin}/signin?error=Verification`);
    expect(forged.headers.get("set-cookie")).toBeNull();

    const again = await newPage(); // a used link does not work twice
    await again.goto(link!);
    await again.getByRole("button", { name: "Sign in as lena@example.com" }).click();
    await again.waitForURL(/\/signin\?error=Verification/);
    expect(await again.getByText("That sign-in link has expired or was already used.").count()).toBe(1);
    await again.close();
    await page.close();
  }, 180_000);

  it("asking for sign-in links and signing up count like failed sign-ins: the 6th for one address is refused, and no sixth mail goes out", async () => {
    const page = await newPage();
    const before = smtp.mails.length;
    for (let i = 0; i < 6; i++) {
      await page.goto(`${srv.origin}/signin`);
      await page.locator("#link-email").fill("flood@example.com");
      await page.getByRole("button", { name: "Send me a link" }).click();
      await page.waitForURL(i < 5 ? /\/signin\?sent=1/ : /\/signin\?confirm=throttled/);
    }
    expect(await page.getByText("Too many requests for this account or from your network.").count()).toBe(1);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 5);

    for (let i = 0; i < 6; i++) {
      await page.goto(`${srv.origin}/signup`);
      await page.locator("#email").fill("twice@example.com");
      await page.locator("#password").fill("a long enough password");
      await page.getByRole("button", { name: "Create account" }).click();
      const expected = i === 0 ? "we sent you a link to confirm your address" : i < 5 ? "An account with this e-mail already exists" : "Too many attempts";
      await expect.poll(() => page.getByText(expected).count(), { timeout: 15_000 }).toBe(1);
    }
    await page.close();
  }, 180_000);
});
