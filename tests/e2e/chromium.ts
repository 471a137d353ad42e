import fs from "node:fs";
import type { LaunchOptions } from "playwright-core";

/**
 * Debian's Chromium (never a downloaded browser): its headless shell where installed
 * (`chromium-headless-shell`, what Playwright itself runs headless), else the full browser.
 * The shell renders the same pages with about a sixth less CPU, and the suite is CPU-bound
 * (docs/performance.md, "The test suite").
 */
const SHELL = "/usr/bin/chromium-headless-shell";

/** The browser, with the flags this closed network needs. */
export const BROWSER_LAUNCH: LaunchOptions = {
  executablePath: fs.existsSync(SHELL) ? SHELL : "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
