import http from "node:http";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { decodeQuotedPrintable, startSmtpCapture, type SmtpCapture } from "../helpers/smtp-capture";
import { appInBrowser, axe, screenshots } from "./browser";
import { TestServer } from "./harness";
import { DEFAULT_RETURN_PATH } from "@/lib/transports/auth/return-path";

// Attacks on the owner's sign-in and on the OAuth limits, performed against the built server
// started as `npm start` starts it, with e-mail configured (a local SMTP capture).
const srv = new TestServer();
let smtp: SmtpCapture;
const WRITER = { email: "writer@example.com", password: "correct horse battery" };
const TARGET = { email: "target@example.com", password: "another horse battery" };
const REGULAR = { email: "regular@example.com", password: "a third horse battery" };

const { newPage } = appInBrowser(srv, async () => {
  smtp = await startSmtpCapture();
  // Counters in this server's memory: a Redis shared with other test runs would mix their
  // loopback budgets with this file's.
  delete srv.env.REDIS_URL;
  Object.assign(srv.env, { SMTP_URL: smtp.url, EMAIL_FROM: "Contentio <no-reply@contentio.test>" });
  // Accounts made by the admin command (no owner is made then), so no confirmation applies.
  await srv.admin("create-user", "--email", WRITER.email, "--password", WRITER.password, "--name", "Wendy Writer");
  await srv.admin("create-user", "--email", TARGET.email, "--password", TARGET.password, "--name", "Tara Target");
  await srv.admin("create-user", "--email", REGULAR.email, "--password", REGULAR.password, "--name", "Rey Regular");
  return [smtp];
});

/** Any navigation to the attacker's site is answered locally and recorded. */
async function watchEvil(page: Page) {
  const visits: string[] = [];
  await page.route(
    (url) => url.hostname.endsWith("evil.example"),
    (route) => {
      visits.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" });
    },
  );
  return visits;
}

const links = (mail: { raw: string }) => decodeQuotedPrintable(mail.raw).match(/https?:\/\/[^\s"<>]+/g) ?? [];

async function signInOnPage(page: Page, email: string, password: string) {
  await page.locator("#email").fill(email);
  await page.locator("#password").fill(password);
  // The action's answer, so that each attempt is over before the next one starts.
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/signin"),
    page.getByRole("button", { name: "Sign in", exact: true }).click(),
  ]);
}

describe("return paths after sign-in", () => {
  it("signing in from /signin?callbackUrl=/%09/evil.example ends on the service's own origin", async () => {
    const page = await newPage();
    const visits = await watchEvil(page);
    await page.goto(`${srv.origin}/signin?callbackUrl=/%09/evil.example`);
    await signInOnPage(page, WRITER.email, WRITER.password);
    await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
    await page.waitForLoadState("networkidle");
    expect(new URL(page.url()).origin).toBe(srv.origin);
    expect(visits).toEqual([]);
    await page.close();
  }, 120_000);

  it("the sign-in and sign-up pages carry only a same-origin path in their forms", async () => {
    for (const hostile of ["/%09/evil.example", "//evil.example", "/%5Cevil.example", "https://evil.example/", "/%0a/evil.example"]) {
      for (const path of ["signin", "signup"]) {
        const html = await fetch(`${srv.origin}/${path}?callbackUrl=${hostile}`).then((r) => r.text());
        const values = [...html.matchAll(/name="callbackUrl" value="([^"]*)"/g)].map((m) => m[1]);
        expect(values.length, `${path} ${hostile}`).toBeGreaterThan(0);
        expect(new Set(values), `${path} ${hostile}`).toEqual(new Set([DEFAULT_RETURN_PATH]));
      }
    }
  });
});

describe("a new password account confirms its e-mail address", () => {
  it("sign-up mails a single-use link on the service's origin; the password works only after it, and onboarding's next= stays home", async () => {
    const page = await newPage();
    const visits = await watchEvil(page);
    const before = smtp.mails.length;
    await page.goto(`${srv.origin}/signup?callbackUrl=/%09/evil.example`);
    await page.locator("#email").fill("newcomer@example.com");
    await page.locator("#password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/signin\?confirm=sent/);
    expect(await page.getByText("we sent you a link to confirm your address").count()).toBe(1);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 1);
    const first = smtp.mails[before];
    expect(first.to).toEqual(["newcomer@example.com"]);
    const [firstLink] = links(first).filter((l) => l.includes("/signup/confirm"));
    expect(new URL(firstLink).origin).toBe(srv.origin);

    // Before the link is opened: the right password is refused, with a way to get the link again.
    await signInOnPage(page, "newcomer@example.com", "a long enough password");
    await expect.poll(() => page.getByText("Confirm your e-mail address first").count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole("button", { name: "Send the confirmation link again" }).click();
    await page.waitForURL(/\/signin\?confirm=sent/);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 2);
    const [secondLink] = links(smtp.mails[before + 1]).filter((l) => l.includes("/signup/confirm"));
    expect(secondLink).not.toBe(firstLink);

    await page.goto(firstLink); // replaced by the second one
    await page.waitForURL(/\/signin\?confirm=invalid/);
    // The link's page confirms with the password chosen there (here the sign-up's again).
    await page.goto(secondLink);
    await axe(page);
    await screenshots(page, "confirm-address");
    await page.locator("#password").fill("a long enough password");
    await page.getByRole("button", { name: "Confirm my address" }).click();
    await page.waitForURL(/\/signin\?confirm=done/);
    expect(await page.getByText("Your e-mail address is confirmed.").count()).toBe(1);
    await page.goto(secondLink); // single use
    await page.waitForURL(/\/signin\?confirm=invalid/);

    // Signed in, onboarding asked to continue to the attacker's address: it stays home.
    await page.goto(`${srv.origin}/signin?callbackUrl=${encodeURIComponent("/onboarding?next=/%09/evil.example")}`);
    await signInOnPage(page, "newcomer@example.com", "a long enough password");
    await page.waitForURL(/\/onboarding/);
    await page.getByLabel("Your name").fill("New Comer");
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByLabel("Sample post 1").fill("Small teams ship daily.\n\nHere is how we do it.");
    await page.getByLabel("Tone").fill("direct");
    await page.getByRole("button", { name: "Save and finish" }).click();
    await page.waitForURL((u) => !u.pathname.startsWith("/onboarding"));
    await page.waitForLoadState("networkidle");
    expect(new URL(page.url()).origin).toBe(srv.origin);
    expect(visits).toEqual([]);
    await page.close();
  }, 180_000);

  it("someone who signs up with another person's address loses the account when its owner confirms it; opening the link alone confirms nothing", async () => {
    const stranger = await newPage();
    const before = smtp.mails.length;
    await stranger.goto(`${srv.origin}/signup`);
    await stranger.locator("#email").fill("owner-of-mailbox@example.com");
    await stranger.locator("#password").fill("the stranger's password");
    await stranger.getByRole("button", { name: "Create account" }).click();
    await stranger.waitForURL(/\/signin\?confirm=sent/);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 1);
    const [link] = links(smtp.mails[before]).filter((l) => l.includes("/signup/confirm"));

    // A mail scanner opens the link: nothing is confirmed, the stranger's password stays shut.
    expect((await fetch(link)).status).toBe(200);
    await signInOnPage(stranger, "owner-of-mailbox@example.com", "the stranger's password");
    await expect.poll(() => stranger.getByText("Confirm your e-mail address first").count(), { timeout: 15_000 }).toBe(1);

    // The mailbox's owner opens it: confirming sets a password of theirs. Even the browser
    // that signed up would have to choose one (a cookie marking it could be planted elsewhere).
    const owner = await newPage();
    await owner.goto(link);
    await owner.locator("#password").fill("short");
    await owner.locator("#password").evaluate((el) => el.removeAttribute("minlength")); // the server checks too
    await owner.getByRole("button", { name: "Confirm my address" }).click();
    await owner.waitForURL(/error=password/);
    expect(await owner.getByText("Use a password of 10 to 200 characters.").count()).toBe(1);
    await owner.locator("#password").fill("the mailbox owner's password");
    await owner.getByRole("button", { name: "Confirm my address" }).click();
    await owner.waitForURL(/\/signin\?confirm=done/);

    await signInOnPage(stranger, "owner-of-mailbox@example.com", "the stranger's password");
    await expect.poll(() => stranger.getByText("Wrong e-mail or password").count(), { timeout: 15_000 }).toBe(1);
    await signInOnPage(owner, "owner-of-mailbox@example.com", "the mailbox owner's password");
    await owner.waitForURL((u) => !u.pathname.startsWith("/signin"));
    await stranger.close();
    await owner.close();
  }, 180_000);
});

/** Five wrong passwords for `email` on the sign-in page, each answered before the next. */
async function guessWrong(page: Page, email: string) {
  await page.goto(`${srv.origin}/signin`);
  for (let i = 0; i < 5; i++) {
    await signInOnPage(page, email, `wrong password ${i}`);
    await expect.poll(() => page.getByText("Wrong e-mail or password.").count(), { timeout: 15_000 }).toBe(1);
    // The message stays from the first attempt on: wait for this answer's render, which
    // empties the password field, or the next fill would be emptied by it and not count.
    await expect.poll(() => page.locator("#password").inputValue(), { timeout: 15_000 }).toBe("");
  }
}

describe("password guessing", () => {
  it("the 6th attempt after 5 wrong passwords is refused with a clear message, even with the right password; other accounts still sign in", async () => {
    const page = await newPage();
    await guessWrong(page, TARGET.email);
    await signInOnPage(page, TARGET.email, TARGET.password);
    await expect.poll(() => page.getByText("Too many failed sign-in attempts").count(), { timeout: 15_000 }).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/signin");

    const other = await newPage();
    await other.goto(`${srv.origin}/signin`);
    await signInOnPage(other, WRITER.email, WRITER.password);
    await other.waitForURL(/\/content$/);
    await other.close();
    await page.close();
  }, 120_000);

  it("a browser that signed in before still signs in after strangers' guesses closed the account to everyone else", async () => {
    const known = await newPage();
    await known.goto(`${srv.origin}/signin`);
    await signInOnPage(known, REGULAR.email, REGULAR.password);
    await known.waitForURL(/\/content$/);
    const device = (await known.context().cookies()).find((c) => c.name === "contentio-device");
    expect(device).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    await guessWrong(await newPage(), REGULAR.email);
    const stranger = await newPage();
    await stranger.goto(`${srv.origin}/signin`);
    await signInOnPage(stranger, REGULAR.email, REGULAR.password);
    await expect.poll(() => stranger.getByText("Too many failed sign-in attempts").count(), { timeout: 15_000 }).toBe(1);
    await known.goto(`${srv.origin}/signin`);
    await signInOnPage(known, REGULAR.email, REGULAR.password);
    await known.waitForURL(/\/content$/);
  }, 120_000);
});

/** A request with headers fetch() will not send (Host), without Origin. */
function rawRequest(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: srv.port, path, method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** next-auth's own e-mail sign-in endpoint, posted with the given host headers. */
async function postEmailSignIn(email: string, hostHeaders: Record<string, string>) {
  const csrf = await rawRequest("/api/auth/csrf", { headers: hostHeaders });
  const token = JSON.parse(csrf.body).csrfToken as string;
  const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const body = new URLSearchParams({ email, csrfToken: token, callbackUrl: "/settings/connections" }).toString();
  return rawRequest("/api/auth/signin/nodemailer", {
    method: "POST",
    headers: { ...hostHeaders, cookie, "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) },
    body,
  });
}

/**
 * The sign-in page's own e-mail form (a Server Action) posted as a script would post it, the
 * way a browser without JavaScript submits it: no Origin (Next lets such a post through), and
 * a host of the attacker's choosing in the forwarding headers. Answers the e-mail's links.
 */
async function emailFormWithForgedHost(email: string) {
  const html = await fetch(`${srv.origin}/signin`).then((r) => r.text());
  const form = html.split("<form").find((f) => f.includes("&quot;nodemailer&quot;"));
  expect(form).toBeDefined();
  const body = new FormData();
  for (const m of form!.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)) {
    body.append(m[1], (m[2] ?? "").replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
  }
  body.append("email", email);
  const before = smtp.mails.length;
  await fetch(`${srv.origin}/signin`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https" },
  });
  await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 1);
  return links(smtp.mails[before]);
}

const register = (xff: string) =>
  rawRequest("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": xff },
    body: JSON.stringify({ client_name: "Probe", redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" }),
  }).then((r) => r.status);

describe("headers a client chooses", () => {
  it("an e-mailed sign-in link requested with another Host is still on the service's origin", async () => {
    const before = smtp.mails.length;
    const res = await postEmailSignIn(WRITER.email, { host: "attacker.example", "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https" });
    expect(res.status).toBeLessThan(400);
    await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 1);
    const found = links(smtp.mails[before]);
    expect(found.length).toBeGreaterThan(0);
    for (const l of found) expect(new URL(l).origin).toBe(srv.origin);
    expect(decodeQuotedPrintable(smtp.mails[before].raw)).not.toContain("attacker.example");
    for (const l of await emailFormWithForgedHost(WRITER.email)) expect(new URL(l).origin).toBe(srv.origin);
  }, 60_000);

  it("rotating X-Forwarded-For does not reset the OAuth registration budget (30 a minute)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 33; i++) statuses.push(await register(`203.0.113.${i + 1}`));
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(30);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  }, 60_000);

  it("behind one trusted proxy (TRUST_PROXY=1), the proxy's X-Forwarded-For names the client, and host headers still cannot move sign-in links", async () => {
    await srv.stop();
    srv.env.TRUST_PROXY = "1";
    await srv.start();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 33; i++) statuses.push(await register(`198.51.100.${i + 1}`));
      expect(statuses.every((s) => s === 201)).toBe(true); // each a different client
      const same: number[] = [];
      for (let i = 0; i < 31; i++) same.push(await register(`6.6.6.6, 198.51.100.200`)); // the proxy saw one client
      expect(same.filter((s) => s === 201)).toHaveLength(30);
      expect(same[30]).toBe(429);

      // The sign-in page's own form, posted without Origin: Next lets such a post through.
      for (const l of await emailFormWithForgedHost(WRITER.email)) expect(new URL(l).origin).toBe(srv.origin);
      const before = smtp.mails.length;
      await postEmailSignIn(WRITER.email, { "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.9" });
      await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 1);
      for (const l of links(smtp.mails[before])) expect(new URL(l).origin).toBe(srv.origin);
    } finally {
      await srv.stop();
      delete srv.env.TRUST_PROXY;
      await srv.start();
    }
  }, 120_000);
});
