import type { RateDecision } from "@/lib/adapters/ratelimit";
import { WINDOW_SECONDS } from "@/lib/adapters/ratelimit/sliding-window";

/** RateLimit-Policy / RateLimit headers (IETF httpapi ratelimit-headers draft). */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    "RateLimit-Policy": `"per-user";q=${d.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"per-user";r=${d.remaining};t=${d.allowed ? d.resetSeconds : d.retryAfter}`,
    ...(d.allowed ? {} : { "Retry-After": String(d.retryAfter) }),
  };
}
