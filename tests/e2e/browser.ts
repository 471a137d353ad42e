import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";

// Debian's chromium (never a downloaded browser), with the flags this closed network needs.
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });

/** A fresh context per person (cookies stay apart; axe needs pages made from a context). */
export const newPage = async (browser: Browser): Promise<Page> => (await browser.newContext()).newPage();

/** No accessibility violation that axe can find. */
export async function axe(page: Page) {
  const r = await new AxeBuilder({ page }).analyze();
  expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
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
