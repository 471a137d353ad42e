import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { errorFacts } from "@/lib/core/redact";
import { PublishError } from "@/lib/domain/networks/platform";
import { setNotice, type Account } from "./tokens";
import type { Answer } from "./request";
import { errorText } from "./http";

// X answers 402 once the developer account's credits are spent (pay per use: "API requests
// will fail until you purchase more credits", docs.x.com, usage and billing). Nothing was
// posted; retrying before the owner buys credits would only fail again, so the draft fails
// (the owner is told, as of any failed post) and account health says why until X takes a post again.

const MARK = "X says this service's X developer account has no credits left";

/** The 402's refusal, with the connection's notice set (account health shows it). */
export async function outOfCredits(db: Db, acc: Account, res: Answer): Promise<PublishError> {
  const detail = await errorText(res);
  try {
    await setNotice(
      db,
      acc,
      `${MARK} (402): nothing is posted to X or read from it until credits are added in X's Developer Console ` +
        `(console.x.com). Then publish the posts that failed again.`,
    );
  } catch (e) {
    log("warn", "the notice of X's credits was not stored", errorFacts(e));
  }
  return new PublishError(
    "failed",
    `X has no credits left for this service's developer account (402: ${detail}); nothing was posted. ` +
      `Add credits in X's Developer Console (console.x.com), then publish it again.`,
  );
}

/** X took a request again: the notice of spent credits no longer holds. */
export async function creditsBack(db: Db, acc: Account) {
  if (!acc.notice?.startsWith(MARK)) return;
  await setNotice(db, acc, null).catch((e) => log("warn", "the notice of X's credits was not cleared", errorFacts(e)));
}
