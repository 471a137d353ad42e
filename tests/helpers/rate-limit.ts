import { afterAll, beforeAll } from "vitest";
import { resetRateLimiter } from "@/lib/adapters/ratelimit";
import { withConfig } from "./env";

/**
 * This file (or describe block) runs with the plans' real limits, which the test configuration
 * otherwise lifts 100-fold, on a limiter with no counts yet.
 */
export function withRealLimits() {
  withConfig({ RATE_LIMIT_SCALE: "1" });
  beforeAll(() => resetRateLimiter());
  afterAll(() => resetRateLimiter());
}
