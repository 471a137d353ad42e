import { config } from "@/lib/core/config";
import { redactSecrets } from "@/lib/core/redact";
import { NOT_STARTED, request, type Answer, type PlatformRequest } from "./request";
import { PublishError } from "@/lib/domain/networks/platform";
import { ADDRESS_REFUSED, guardedUrlProblem } from "./guarded";

// Classifies what happened to a request sent to a platform, so the caller knows whether
// anything may have been posted (docs/interface.md, Publishing).

const NOTHING_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", NOT_STARTED]);

function causeCode(e: unknown): string | undefined {
  let c: unknown = e;
  for (let i = 0; i < 4 && c && typeof c === "object"; i++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string") return code;
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * One platform call with the publish timeout. A connection that never opened, or was not ready
 * by the deadline, is "retry" (nothing was sent); a timeout or a connection cut after sending is
 * "unknown" (it may have been posted).
 */
export async function send(network: string, url: string, init: PlatformRequest): Promise<Answer> {
  const ms = config().PUBLISH_TIMEOUT_MS;
  const refused = (why: string) =>
    new PublishError("failed", `This service does not connect to the ${network} server ${new URL(url).host} (${why}); nothing was sent.`);
  const problem = init.guarded ? guardedUrlProblem(url) : null;
  if (problem) throw refused(problem);
  try {
    return await request(url, init, ms);
  } catch (e) {
    if (causeCode(e) === ADDRESS_REFUSED) throw refused((e as Error).message);
    const name = (e as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") {
      throw new PublishError("unknown", `${network} did not answer within ${Math.round(ms / 1000)} seconds; the post may or may not have been created.`);
    }
    const code = causeCode(e);
    if (code && NOTHING_SENT.has(code)) throw new PublishError("retry", `${network} could not be reached (${code}); nothing was sent.`);
    throw new PublishError(
      "unknown",
      `The connection to ${network} broke after the post was sent ` +
        `(${code ?? redactSecrets(String((e as Error)?.message), 100)}); it may or may not have been created.`,
    );
  }
}

/** When a 429 says to come back: x-rate-limit-reset (epoch seconds) or Retry-After. */
export function retryAt(res: Answer, now = Date.now()): Date | undefined {
  const reset = Number(res.headers.get("x-rate-limit-reset"));
  if (Number.isFinite(reset) && reset > 0) return new Date(reset * 1000);
  const after = res.headers.get("retry-after");
  if (after && /^\d+$/.test(after)) return new Date(now + Number(after) * 1000);
  if (after && !isNaN(Date.parse(after))) return new Date(after);
  return undefined;
}

/**
 * X's 24-hour caps (x-user-limit-24hour-*, x-app-limit-24hour-*; docs.x.com, rate limits): a
 * 429 with one spent names when it resets, hours later. X sends no Retry-After.
 */
function dailyReset(res: Answer): Date | undefined {
  for (const who of ["user", "app"]) {
    const remaining = res.headers.get(`x-${who}-limit-24hour-remaining`);
    const reset = Number(res.headers.get(`x-${who}-limit-24hour-reset`));
    if (remaining === "0" && Number.isFinite(reset) && reset > 0) return new Date(reset * 1000);
  }
  return undefined;
}

/** A platform's error body, fit to show: bounded, and without any credential it echoes. */
export async function errorText(res: Answer): Promise<string> {
  return redactSecrets((await res.text().catch(() => "")).slice(0, 2000), 200);
}

/**
 * The statuses every platform shares. 429 and 500/502/503 are refusals that created nothing:
 * retried. 504 (a gateway gave up waiting) may hide a created post: unknown.
 */
export async function commonFailure(network: string, res: Answer): Promise<PublishError | null> {
  if (res.status === 429) {
    const daily = dailyReset(res);
    if (daily) return new PublishError("retry", `${network} allows no more posts today (its 24-hour cap is reached).`, daily, true);
    const at = retryAt(res);
    return new PublishError("retry", `${network} rate limit reached (429)${at ? `; it resets at ${at.toISOString()}` : ""}.`, at);
  }
  if (res.status === 504) return new PublishError("unknown", `${network} answered 504 (gateway timeout); the post may or may not have been created.`);
  if (res.status >= 500) return new PublishError("retry", `${network} had a server error (${res.status}): ${await errorText(res)}`);
  return null;
}
