import { availableParallelism } from "node:os";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// One `npm test` covers both databases: every test runs on the embedded defaults (PGlite, the
// in-process rate limiter), and with DATABASE_URL set the tests that touch a database run once
// more against that PostgreSQL (and REDIS_URL's Redis). Tests that touch no database run once,
// and so do most browser tests (BROWSER_ON_BOTH).

/**
 * The browser tests run once, on the embedded defaults: the pages act through the domain
 * functions that the integration tests run on both databases, and each browser file costs
 * minutes of a two-core machine. Those whose subject is the database or the process itself
 * (a database failing or restarting, two processes sharing one, readiness) run on both, and so
 * does scheduled publishing on a built server, the product's core.
 */
const BROWSER_ON_BOTH = ["publishing", "scheduler-processes", "webhooks-crash", "log-secrets", "health", "server"].map((f) => `tests/e2e/${f}.test.ts`);

const ALL = ["tests/**/*.test.ts"];

const projects: TestProjectInlineConfiguration[] = [{ extends: true, test: { name: "embedded", include: ALL, setupFiles: ["tests/setup/embedded.ts"] } }];
if (process.env.DATABASE_URL)
  projects.push({ extends: true, test: { name: "postgres", include: ["tests/{integration,mcp,oauth}/**/*.test.ts", ...BROWSER_ON_BOTH] } });

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    environment: "node",
    // Room for a machine busy with browsers and servers; a test that hangs still fails.
    testTimeout: 60_000,
    // In CI, a failed test runs once more: on two shared cores a browser test can miss a wait
    // by load alone. One that fails twice fails the run.
    retry: process.env.CI ? 1 : 0,
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
