import { describe, expect, it } from "vitest";
import { decodeQuotedPrintable, startSmtpCapture, type SmtpCapture } from "../helpers/smtp-capture";
import { appInBrowser } from "./browser";
import { TestServer } from "./harness";

// Login CSRF through the e-mail callback: someone asks for a sign-in link to their own mailbox,
// then gets a visitor's browser to use it, so that what the visitor connects or writes next
// lands in their account. Against the built server, with e-mail on (a local SMTP capture).
const srv = new TestServer();
let smtp: SmtpCapture;
const ATTACKER = "attacker@example.com";
const CALLBACK = "/api/auth/callback/nodemailer";

const { newPage } = appInBrowser(srv, async () => {
  smtp = await startSmtpCapture();
  delete srv.env.REDIS_URL; // sign-in budgets in this server's memory, apart from other runs
  Object.assign(srv.env, { SMTP_URL: smtp.url, EMAIL_FROM: "Contentio <no-reply@contentio.test>" });
  return [smtp];
});

const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]);
const signsIn = (res: Response) => cookiesOf(res).some((c) => /session-token=./.test(c));

/** The token of a fresh sign-in link for `email`, asked for on next-auth's own endpoint. */
async function linkToken(email: string): Promise<string> {
  const csrf = await fetch(`${srv.origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const before = smtp.mails.length;
  await fetch(`${srv.origin}/api/auth/signin/nodemailer`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookiesOf(csrf).join("; "), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, csrfToken }),
  });
  await expect.poll(() => smtp.mails.length, { timeout: 15_000 }).toBe(before + 1);
  const link = new RegExp(`http://localhost:\\d+${CALLBACK}\\?\\S+`).exec(decodeQuotedPrintable(smtp.mails[before].raw))?.[0];
  return new URL(link!).searchParams.get("token")!;
}

/** The cookie a browser gets by confirming, on the link page, a link with this token. */
async function confirmedIn(token: string, email: string): Promise<string> {
  const res = await fetch(`${srv.origin}/signin/link/confirm`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: srv.origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, email }),
  });
  const proof = cookiesOf(res);
  expect(proof).toHaveLength(1);
  return proof[0];
}

const callback = (query: string, init: RequestInit = {}) => fetch(`${srv.origin}${CALLBACK}?${query}`, { redirect: "manual", ...init });

describe("an e-mailed sign-in link used by someone else's page", () => {
  it("a page on another site that posts the attacker's link to the callback signs the visitor in as nobody", async () => {
    const token = await linkToken(ATTACKER);
    const action = `${srv.origin}${CALLBACK}?${new URLSearchParams({ callbackUrl: "/settings/connections", token, email: ATTACKER })}`;
    const page = await newPage();
    await page.route(
      (u) => u.hostname === "evil.example",
      (route) =>
        route.fulfill({
          contentType: "text/html",
          body: `<form method="post" action="${action.replaceAll("&", "&amp;")}"></form><script>document.forms[0].submit()</script>`,
        }),
    );
    await page.goto("https://evil.example/");
    await page.waitForURL((u) => u.origin === srv.origin);
    await page.waitForLoadState("networkidle");
    // The visitor is signed in as no one, and asked first, as with a link merely opened.
    expect((await page.context().cookies()).some((c) => c.name.includes("session-token"))).toBe(false);
    expect(await page.getByRole("heading", { name: `Sign in as ${ATTACKER}` }).count()).toBe(1);
    await page.goto(`${srv.origin}/settings/connections`);
    await page.waitForURL(/\/signin/);
    await page.close();
  }, 120_000);

  it("a POST without a browser, with any body, is sent to the link page and signs no one in", async () => {
    const token = await linkToken(ATTACKER);
    const query = new URLSearchParams({ token, email: ATTACKER }).toString();
    for (const body of [undefined, new URLSearchParams({ token, email: ATTACKER })]) {
      const res = await callback(query, { method: "POST", body });
      expect(signsIn(res)).toBe(false);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toMatch(new RegExp(`^${srv.origin}/signin/link\\?`));
    }
  });

  it("a link naming its token or address twice is refused, even in a browser that confirmed one of them", async () => {
    const token = await linkToken(ATTACKER);
    // This browser confirmed a link of its own a moment ago (its token, V): next-auth reads the
    // last `token`, and a check that read the first would pass on V and sign in with the attacker's.
    const own = "v".repeat(64);
    const ownProof = await confirmedIn(own, "visitor@example.com");
    const attackersProof = await confirmedIn(token, ATTACKER);
    const tries: [string, string][] = [
      [`token=${own}&email=${ATTACKER}&token=${token}`, ownProof],
      [`token=${token}&token=${token}&email=${ATTACKER}`, attackersProof],
      [`token=${token}&email=visitor%40example.com&email=${ATTACKER}`, attackersProof],
    ];
    for (const [query, cookie] of tries) {
      for (const method of ["GET", "POST"]) {
        const res = await callback(query, { method, headers: { cookie } });
        expect(signsIn(res), `${method} ${query}`).toBe(false);
        expect(res.status, `${method} ${query}`).toBe(303);
        expect(res.headers.get("location"), `${method} ${query}`).toBe(`${srv.origin}/signin?error=Verification`);
      }
    }
    // The page a link opens offers no button for such a link either.
    const page = await fetch(`${srv.origin}/signin/link?token=${token}&email=visitor%40example.com&email=${ATTACKER}`).then((r) => r.text());
    expect(page).toContain("This sign-in link is incomplete.");
    expect(page).not.toContain("/signin/link/confirm");
    // The link itself, confirmed and named once, still signs in: the refusals were for the repetition.
    const res = await callback(`token=${token}&email=${ATTACKER}`, { headers: { cookie: attackersProof } });
    expect(signsIn(res)).toBe(true);
  });
});
