import fs from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// One `npm test` covers both databases: every test runs on the embedded defaults (PGlite, the
// in-process rate limiter), and with DATABASE_URL set the tests that touch a database run once
// more against that PostgreSQL (and REDIS_URL's Redis). Tests that touch no database run once,
// and so do most browser tests (BROWSER_ON_BOTH) and the files in EMBEDDED_ONLY.

/**
 * The browser tests run once, on the embedded defaults: the pages act through the domain
 * functions that the integration tests run on both databases, and each browser file costs
 * minutes of a two-core machine. Those whose subject is the database or the process itself
 * (a database failing or restarting, two processes sharing one, readiness) run on both, and so
 * does scheduled publishing on a built server, the product's core.
 */
const BROWSER_ON_BOTH = ["publishing", "scheduler-processes", "webhooks-crash", "log-secrets", "health", "server"].map((f) => `tests/e2e/${f}.test.ts`);

/**
 * Files that would only repeat themselves on PostgreSQL: clients nobody here wrote, checking
 * the MCP and OAuth protocols (what they prove does not depend on the database, and each costs
 * a minute of the two cores); files whose subject is the embedded database itself; files that
 * open no database.
 */
const EMBEDDED_ONLY = [
  "tests/mcp/conformance.test.ts",
  "tests/mcp/independent-clients.test.ts",
  "tests/oauth/conformance.test.ts",
  "tests/integration/pglite-statements.test.ts",
  "tests/integration/pglite-values.test.ts",
  "tests/integration/bluesky-network.test.ts",
  "tests/integration/loopback.test.ts",
];

const ALL = ["tests/**/*.test.ts"];

/** The test files that drive Chromium (tests/e2e/browser.ts), found by what they call. */
const BROWSER = fs
  .readdirSync("tests", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && /\b(appInBrowser|userInBrowser|launchBrowser)\(/.test(fs.readFileSync(path.join("tests", f), "utf8")))
  .map((f) => `tests/${f.split(path.sep).join("/")}`);

/**
 * Files that replace a module (`vi.mock`): each needs a module registry of its own, so they run
 * isolated, in projects of their own. Every other file, browser files included, shares its
 * worker's modules with the files before it (`isolate: false`): importing the app (and, for a
 * browser file, playwright-core and the helpers) once a worker instead of once a file is most
 * of what a small file costs. Such a file keeps no state in a module between files: its
 * database, configuration, servers and fakes are its own and put back in its hooks
 * (tests/helpers).
 */
const MOCKING = fs
  .readdirSync("tests", { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && /\bvi\.(do)?[mM]ock\(/.test(fs.readFileSync(path.join("tests", f), "utf8")))
  .map((f) => `tests/${f.split(path.sep).join("/")}`);

/**
 * What the browser projects share: the run's one Chromium (tests/setup/browser.ts), and in CI
 * a second try for a failed test: on two shared cores a page can still miss a wait by load
 * alone. One that fails twice fails the run. No other project retries: a test there that
 * fails once is a bug to find, not noise.
 */
const browser = { globalSetup: ["tests/setup/browser.ts"], retry: process.env.CI ? 1 : 0 };

const embedded = { setupFiles: ["tests/setup/embedded.ts"] };
const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: "embedded", include: ALL, exclude: [...BROWSER, ...MOCKING], isolate: false, ...embedded } },
  {
    extends: true,
    test: {
      name: "browser",
      include: BROWSER,
      exclude: MOCKING,
      isolate: false,
      ...browser,
      globalSetup: [...browser.globalSetup, "tests/setup/shared-servers.ts"],
      ...embedded,
    },
  },
  { extends: true, test: { name: "isolated", include: MOCKING, ...embedded } },
];
/** A file that runs again on PostgreSQL: one that touches a database, less the runners above. */
const onPostgres = (f: string) => (/^tests\/(integration|mcp|oauth)\//.test(f) || BROWSER_ON_BOTH.includes(f)) && !EMBEDDED_ONLY.includes(f);
if (process.env.DATABASE_URL)
  projects.push(
    {
      extends: true,
      test: {
        name: "postgres",
        include: ["tests/{integration,mcp,oauth}/**/*.test.ts", ...BROWSER_ON_BOTH],
        exclude: [...BROWSER, ...MOCKING, ...EMBEDDED_ONLY],
        isolate: false,
      },
    },
    { extends: true, test: { name: "postgres-browser", include: BROWSER.filter(onPostgres), exclude: MOCKING, isolate: false, ...browser } },
    { extends: true, test: { name: "postgres-isolated", include: MOCKING.filter(onPostgres) } },
  );

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    environment: "node",
    // Room for a machine busy with browsers and servers; a test that hangs still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A page or a server answering a poll can be slow while other files run: a poll waits up
    // to 10 s (vitest's default is 1 s), and passes as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    // Generous per-user limits except where a test checks the limiter itself.
    env: { RATE_LIMIT_SCALE: "100", LOG_LEVEL: "silent", APP_URL: "http://localhost:3000", AUTH_SECRET: "test-only-secret-not-for-production-0123456789" },
    pool: "forks",
    // Most of a test file's time is spent waiting (servers, browsers, timers): one file more
    // than there are cores keeps them busy; more only makes the CPU-bound files slower and late
    // (docs/performance.md, "The test suite").
    maxWorkers: Number(process.env.TEST_WORKERS || availableParallelism() + 1),
    projects,
  },
});
