import http from "node:http";
import { describe, expect, it } from "vitest";
import { sendHuge, type HugeAnswer } from "../helpers/huge-body";
import { appInBrowser, signIn } from "./browser";
import { TestServer } from "./harness";

// Bodies sent before any sign-in, as an attacker would send them: far larger than any route
// takes, streamed, to every kind of route that reads one. The one process also runs the
// scheduler and webhook delivery, so each must be refused early (413 in the route's own
// shape, the connection closed) and the server must go on answering. Against the built
// server (server.mjs).
const srv = new TestServer();
const NEWCOMER = { email: "newcomer@example.com", password: "a long enough password" };

const { newPage } = appInBrowser(srv, async () => {
  // Inngest configured (its calls are signed; nothing is ever sent to this address).
  Object.assign(srv.env, { INNGEST_EVENT_KEY: "test-event-key", INNGEST_SIGNING_KEY: "signkey-test-0123456789abcdef", INNGEST_BASE_URL: "http://127.0.0.1:9" });
  delete srv.env.REDIS_URL;
  await srv.admin("create-user", "--email", NEWCOMER.email, "--password", NEWCOMER.password, "--incomplete");
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const MULTIPART = { "content-type": "multipart/form-data; boundary=----huge" };

/** The id of the sign-in page's first server action, as its form carries it. */
async function signInActionId(): Promise<string> {
  const html = await fetch(`${srv.origin}/signin`).then((r) => r.text());
  const value = /name="\$ACTION_1:0" value="([^"]*)"/.exec(html)?.[1] ?? "";
  return JSON.parse(value.replaceAll("&quot;", '"').replaceAll("&amp;", "&")).id;
}

type Shape = "api" | "oauth" | "text";

/** Soft: every route is tried, and each one's failure reported. */
function expectRefused(a: HugeAnswer, shape: Shape, limit: string, what: string) {
  expect.soft(a.status, what).toBe(413);
  expect.soft(a.closed, what).toBe(true);
  // The server stopped reading: what went out is the limit plus what the connection's buffers held.
  expect.soft(a.sent, what).toBeLessThan(24 * 1024 * 1024);
  expect.soft(a.headers.connection, what).toBe("close");
  const json = (() => {
    try {
      return JSON.parse(a.body);
    } catch {
      return undefined;
    }
  })();
  if (shape === "api") {
    expect.soft(a.headers["content-type"] ?? "", what).toMatch(/^application\/json/);
    expect.soft(json?.error, what).toMatchObject({
      code: "invalid_request",
      message: "The request body is too large.",
      details: [{ path: "(body)", message: `The body is larger than ${limit}` }],
    });
  } else if (shape === "oauth") {
    expect.soft(json, what).toEqual({ error: "invalid_request", error_description: `The body is larger than ${limit}.` });
  } else {
    expect.soft(a.headers["content-type"], what).toBe("text/plain");
    expect.soft(a.body, what).toContain(`larger than ${limit}`);
  }
}

const stillAnswers = async () => {
  const started = Date.now();
  expect((await fetch(`${srv.origin}/api/v1`)).status).toBe(200);
  expect((await fetch(`${srv.origin}/signin`)).status).toBe(200);
  expect(Date.now() - started).toBeLessThan(5000);
};

type Route = { what: string; path: string; headers: Record<string, string>; shape: Shape; limit: string };

/** Every kind of route that reads a body before sign-in (known once the server runs). */
const readingRoutes = async (): Promise<Route[]> => [
  { what: "the sign-in link's confirmation", path: "/signin/link/confirm", headers: { ...FORM, origin: srv.origin }, shape: "text", limit: "64 KiB" },
  { what: "next-auth's password sign-in", path: "/api/auth/callback/credentials", headers: FORM, shape: "api", limit: "64 KiB" },
  { what: "next-auth's sign-in start", path: "/api/auth/signin/linkedin", headers: FORM, shape: "api", limit: "64 KiB" },
  { what: "Inngest's calls", path: "/api/inngest?fnId=x&stepId=step", headers: { "content-type": "application/json" }, shape: "api", limit: "4096 KiB" },
  {
    what: "the sign-in page's server action",
    path: "/signin",
    headers: { ...MULTIPART, "next-action": await signInActionId() },
    shape: "text",
    limit: "64 KiB",
  },
  { what: "the sign-in page's form without script", path: "/signin", headers: MULTIPART, shape: "text", limit: "64 KiB" },
  { what: "an owner page's form without script", path: "/settings/connections", headers: MULTIPART, shape: "text", limit: "1024 KiB" },
  { what: "OAuth's token endpoint", path: "/oauth/token", headers: FORM, shape: "oauth", limit: "64 KiB" },
];

describe("a 500 MB body before sign-in", () => {
  for (const chunked of [false, true]) {
    it(`${chunked ? "chunked" : "declared in Content-Length"}: refused early at every route that reads one, and the server goes on answering`, async () => {
      for (const r of await readingRoutes()) {
        expectRefused(await sendHuge(srv.port, r.path, { headers: r.headers, chunked }), r.shape, r.limit, r.what);
        await stillAnswers();
      }
    }, 300_000);
  }

  it("several at once, while the server goes on answering", async () => {
    const sending = [0, 1, 2, 3].map((i) => sendHuge(srv.port, "/api/auth/callback/credentials", { headers: FORM, chunked: i % 2 === 0 }));
    await stillAnswers();
    for (const a of await Promise.all(sending)) expectRefused(a, "api", "64 KiB", "at once");
    await stillAnswers();
  }, 120_000);

  it("where the answer needs no body, a declared one is refused, and an undeclared one is read no further than the limit: the connection closes", async () => {
    const unread: (Route & { status: number })[] = [
      { what: "an unknown API address", path: "/api/v2/anything", headers: { "content-type": "application/json" }, shape: "api", limit: "64 KiB", status: 404 },
      { what: "a form post to a page without an action", path: "/content", headers: FORM, shape: "text", limit: "1024 KiB", status: 307 },
      // The link's confirmation from another site, refused on its Origin.
      {
        what: "a forged confirmation",
        path: "/signin/link/confirm",
        headers: { ...FORM, origin: "https://evil.example" },
        shape: "text",
        limit: "64 KiB",
        status: 303,
      },
    ];
    for (const r of unread) {
      expectRefused(await sendHuge(srv.port, r.path, { headers: r.headers }), r.shape, r.limit, r.what);
      const a = await sendHuge(srv.port, r.path, { headers: r.headers, chunked: true });
      expect(a.status, r.what).toBe(r.status);
      expect(a.closed, r.what).toBe(true);
      expect(a.sent, r.what).toBeLessThan(24 * 1024 * 1024);
      await stillAnswers();
    }
  }, 120_000);
});

describe("bodies within the limits", () => {
  it("onboarding at every field's longest, in three-byte characters, after a sample pasted far too long: a field error, then saved", async () => {
    const page = await newPage();
    await page.goto(`${srv.origin}/onboarding`);
    await signIn(page, NEWCOMER.email, NEWCOMER.password);
    await page.waitForURL(/\/onboarding/);
    const long = (n: number) => "€".repeat(n);
    await page.getByLabel("Your name").fill(long(100));
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    for (const i of [1, 2, 3]) await page.locator(`#sample${i}`).fill(long(i === 1 ? 30_000 : 3000));
    await page.getByLabel("Tone").fill(Array.from({ length: 8 }, () => long(60)).join(","));
    await page.locator("#voiceSummary").fill(long(500));
    await page.locator("#niche").fill(long(200));
    await page.locator("#traits").fill(Array.from({ length: 10 }, () => long(60)).join(","));
    await page.locator("#pillars").fill(Array.from({ length: 10 }, () => `${long(80)}: ${long(200)}`).join("\n"));
    await page.getByRole("button", { name: "Save and finish" }).click();
    // Beside the field (the error summary above the form says it again, linking here).
    await expect.poll(() => page.locator("#sample1-error").textContent(), { timeout: 15_000 }).toBe("A sample post can have at most 3,000 characters.");
    // Sent again with what came back (the form's state travels with it).
    await page.locator("#sample1").fill(long(3000));
    await page.getByRole("button", { name: "Save and finish" }).click();
    await page.waitForURL((u) => !u.pathname.startsWith("/onboarding"));
    await page.close();
  }, 120_000);

  it("a small body that an answer left unread is read to its end, and the connection kept for the next request", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (chunked: boolean) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = http.request(`${srv.origin}/content`, { method: "POST", agent, headers: chunked ? FORM : { ...FORM, "content-length": "9" } });
        req.on("response", (res) => res.resume().on("end", () => resolve({ status: res.statusCode!, reused: req.reusedSocket })));
        req.on("error", reject);
        req.end("a=b&c=d&e");
      });
    try {
      expect(await post(false)).toEqual({ status: 307, reused: false }); // to sign-in, the form unread
      expect(await post(true)).toEqual({ status: 307, reused: true });
      expect(await post(false)).toEqual({ status: 307, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("a sign-in form just under its limit is read, not refused", async () => {
    const res = await fetch(`${srv.origin}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: FORM,
      body: new URLSearchParams({ email: NEWCOMER.email, password: "x".repeat(60 * 1024) }),
    });
    expect(res.status).toBe(302); // next-auth's own answer (a missing CSRF token)
  });
});
