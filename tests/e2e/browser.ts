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
