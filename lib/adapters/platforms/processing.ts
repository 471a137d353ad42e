import { PublishError } from "@/lib/domain/networks/platform";

// X processes an animated GIF after upload and LinkedIn a document; a post naming either
// before they finish is refused. The adapter waits, within a bound: a publish that waited too
// long gives way and is retried (the upload alone published nothing).

/** How long one publish waits for a network to finish processing an upload. */
export const PROCESSING_WAIT_MS = 90_000;
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 5_000;
/** When a publish that gave up waiting tries again. */
const RETRY_AFTER_MS = 60_000;

export type ProcessingState = { state: "ready" } | { state: "processing"; checkAfterMs?: number } | { state: "failed"; reason: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reads `status` until the medium is ready. Waits as the network asks (`checkAfterMs`, X's
 * check_after_secs) or, when it does not say, a little longer each time. A failed processing
 * fails the draft with the network's reason; one still processing at the bound is retried.
 */
export async function untilProcessed(network: string, what: string, status: () => Promise<ProcessingState>, first?: ProcessingState): Promise<void> {
  const deadline = Date.now() + PROCESSING_WAIT_MS;
  let s = first ?? (await status());
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, MAX_POLL_MS)) {
    if (s.state === "ready") return;
    if (s.state === "failed") throw new PublishError("failed", `${network} could not process the ${what}: ${s.reason}`);
    const pause = s.checkAfterMs ?? wait;
    if (Date.now() + pause > deadline)
      throw new PublishError("retry", `${network} was still processing the ${what}; nothing was posted yet.`, new Date(Date.now() + RETRY_AFTER_MS));
    await sleep(pause);
    s = await status();
  }
}
