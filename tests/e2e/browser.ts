import fs from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { BROWSER_LAUNCH } from "./chromium";
import type { TestServer } from "./harness";

/**
 * This run's Chromium (tests/setup/browser.ts) through a connection of this file's own, or
 * a Chromium of its own when run outside the browser projects. Closing it closes the
 * connection and every context made through it.
 */
export const launchBrowser = (): Promise<Browser> => {
  const endpoint = inject("chromiumEndpoint");
  return endpoint ? chromium.connect(endpoint) : chromium.launch(BROWSER_LAUNCH);
};

/**
 * Presses a button that counts only a deliberate click (components/deliberate-button.tsx:
 * Approve, Allow, switches, a dialog's confirming button): the pointer rests on the page a
 * moment first, as a person's does.
 */
export async function press(button: Locator) {
  await button.hover();
  await expect.poll(() => button.getAttribute("data-armed")).toBe("true");
  await button.click();
}

/** The same with the keyboard alone: a key pressed on the page (the Tab that brought focus) arms it, then Enter. */
export async function pressWithKeys(page: Page, button: Locator) {
  await button.focus();
  await page.keyboard.press("Shift");
  await expect.poll(() => button.getAttribute("data-armed")).toBe("true");
  await page.keyboard.press("Enter");
}

/**
 * A fresh context per person (cookies stay apart; axe needs pages made from a context);
 * `options` as the person's browser has them (its time zone: `timezoneId`).
 */
export const newPage = async (browser: Browser, options?: BrowserContextOptions): Promise<Page> => (await browser.newContext(options)).newPage();

/** axe-core as the page runs it (injected by axe()). */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * No accessibility violation that axe can find. Next streams a dynamic page's metadata after
 * its content, so right after a navigation (a server action's redirect) the content can be
 * there before the title: the page is analyzed once it has one (a page that never gets a title
 * still fails, when the wait runs out).
 */
export async function axe(page: Page) {
  await expect.poll(() => page.title()).not.toBe("");
  // axe-core run in the page itself (its documented `axe.run`), violations only: what
  // @axe-core/playwright's analyze() does, less the blank page it opens for each analysis to
  // gather frames' results (these pages have no frames) and the passes it gathers too, which
  // together made each analysis cost three to five times as much.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  // As a desktop and as a phone shows it (the narrow layout folds menus and tables of its own),
  // then back to the size the test had.
  const had = page.viewportSize() ?? { width: 1280, height: 720 };
  const phone = had.width <= 640;
  const found: string[] = [];
  for (const size of [had, phone ? { width: 1280, height: 900 } : { width: 390, height: 844 }]) {
    if (size !== had) await page.setViewportSize(size);
    const violations = await page.evaluate(async () => {
      const { violations } = await (window as unknown as { axe: typeof import("axe-core") }).axe.run(document, { resultTypes: ["violations"] });
      return violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(" ")) }));
    });
    found.push(...violations.map((v) => `${size.width} px ${v.id}: ${v.targets.join(", ")}`));
  }
  await page.setViewportSize(had);
  expect(found).toEqual([]);
}

/** With SCREENSHOT_DIR set, the page as a desktop (1280 px) and a phone (390 px) shows it. */
export async function screenshots(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const [w, h, tag] of [
    [1280, 900, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${dir}/${name}-${tag}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

type Closable = { close(): unknown } | undefined;

/**
 * This file's built app and browser. `prepare` runs between setup and the start (fakes,
 * configuration, admin commands; a firstStart leaves the server running) and returns what to
 * close after the file; the browser and the app stop first. `shared`: the worker's running
 * server (tests/setup/shared-servers.ts) instead of one of the file's own; `prepare` then
 * creates the file's users, each with an address no other file uses.
 */
export function appInBrowser(srv: TestServer, prepare: () => Promise<Closable[] | void> = async () => {}, { shared = false } = {}) {
  let browser: Browser | undefined;
  let closables: Closable[] = [];
  beforeAll(async () => {
    if (shared) {
      const mine = inject("sharedServers")?.[Number(process.env.VITEST_POOL_ID) - 1];
      if (!mine) throw new Error("no shared server: this file runs in the browser project (vitest.config.ts)");
      srv.attach(mine);
    } else await srv.setup();
    closables = (await prepare()) ?? [];
    if (!shared && !srv.running) await srv.start(); // unless prepare left it running (firstStart)
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    if (!shared) await srv.teardown();
    await Promise.all(closables.map((c) => c?.close()));
  });
  return { newPage: (options?: BrowserContextOptions) => newPage(browser!, options) };
}

type User = { email: string; password: string; name?: string; allowPublishing?: boolean; app?: string };

/**
 * This file's user, on the creator plan, on the worker's shared server (`appInBrowser`'s
 * `shared`), with a token for `user.app` if named; `prepare` runs first (fakes the file
 * starts) and returns what to close after the file.
 */
export function userInBrowser(srv: TestServer, user: User, prepare: () => Promise<Closable[] | void> = async () => {}) {
  let token = "";
  const app = appInBrowser(
    srv,
    async () => {
      const closables = await prepare();
      const optional = [...(user.name ? ["--name", user.name] : []), ...(user.allowPublishing ? ["--allow-publishing"] : [])];
      await srv.admin("create-user", "--email", user.email, "--password", user.password, "--plan", "creator", ...optional);
      if (user.app) token = JSON.parse((await srv.admin("issue-token", "--email", user.email, "--app", user.app)).stdout).access_token;
      return closables;
    },
    { shared: true },
  );
  return {
    ...app,
    /** The app's access token, once the file's hooks have run. */
    get token() {
      return token;
    },
  };
}

/** Fills the sign-in form the page shows (the app's own redirect to /signin) and submits it. */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("E-mail").first().fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Opens `url` signed in: through the sign-in form it redirects to, and back. */
export async function openSignedIn(page: Page, url: string, email: string, password: string) {
  await page.goto(url);
  await signIn(page, email, password);
  await page.waitForURL(url);
  return page;
}

/**
 * A page's form as another site's page would post it, without script (Next's own form
 * encoding of a server action), with the signed-in owner's session cookie: the worst case, a
 * browser that sends it cross-site (SameSite aside). `marker` picks the form by its HTML.
 */
export async function forgedForm(page: Page, url: string, marker: string) {
  const cookie = (await page.context().cookies(url)).map((c) => `${c.name}=${c.value}`).join("; ");
  const html = await fetch(url, { headers: { cookie } }).then((r) => r.text());
  const form = html.split("<form").find((f) => f.includes(marker));
  expect(form, `a form with ${marker} at ${url}`).toBeDefined();
  const fields = [...form!.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)].map(
    ([, k, v]) => [k, (v ?? "").replaceAll("&quot;", '"').replaceAll("&amp;", "&")] as const,
  );
  // A server action's own fields: the forged posts reach the action, not some other route.
  expect(fields.some(([k]) => k.startsWith("$ACTION"))).toBe(true);
  const csrf = fields.find(([k]) => k === "csrf")?.[1];
  expect(csrf).toBeTruthy();
  /**
   * Posts the form's hidden fields (but its CSRF token: `opts.csrf`, if any) and `values`
   * (one that is undefined leaves that field out), from `opts.origin` if given.
   */
  const post = async (values: Record<string, string | undefined>, opts: { origin?: string; csrf?: string }) => {
    const body = new FormData();
    for (const [k, v] of fields) if (k !== "csrf" && !(k in values)) body.append(k, v);
    if (opts.csrf !== undefined) body.append("csrf", opts.csrf);
    for (const [k, v] of Object.entries(values)) if (v !== undefined) body.append(k, v);
    const res = await fetch(url, { method: "POST", body, redirect: "manual", headers: { cookie, ...(opts.origin && { origin: opts.origin }) } });
    return { status: res.status, text: await res.text() };
  };
  return { csrf: csrf!, post };
}
