import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": import.meta.dirname } },
  test: {
    include: ["tests/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Generous per-user limits except where a test checks the limiter itself.
    env: { RATE_LIMIT_SCALE: "100", LOG_LEVEL: "silent", APP_URL: "http://localhost:3000", AUTH_SECRET: "test-only-secret-not-for-production-0123456789" },
    pool: "forks",
  },
});
