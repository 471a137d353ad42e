import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { BROWSER_LAUNCH } from "../e2e/chromium";

// One Chromium for the whole run instead of one a test file: launching it costs 2-3 s of a
// busy two-core machine, connecting about one (docs/performance.md, "The test suite"). Each
// test file still gets its own connection, and each person in it a fresh context (cookies,
// storage and time zone of their own), so nothing carries from one file to the next.

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the run's Chromium takes connections (playwright-core's `connect`). */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await chromium.launchServer(BROWSER_LAUNCH);
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return () => server.close();
}
