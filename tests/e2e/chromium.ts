import type { LaunchOptions } from "playwright-core";

/** Debian's chromium (never a downloaded browser), with the flags this closed network needs. */
export const BROWSER_LAUNCH: LaunchOptions = {
  executablePath: "/usr/bin/chromium",
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
