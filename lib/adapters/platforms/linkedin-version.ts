import { config } from "@/lib/core/config";
import type { Db } from "@/lib/adapters/db";
import { log } from "@/lib/core/log";
import { setNotice, type Account } from "./tokens";
import type { Answer } from "./request";

// LinkedIn's REST API wants a monthly version (LinkedIn-Version: YYYYMM); each is supported
// for at least a year, then answered 426 NONEXISTENT_VERSION. A fixed default expires, so the
// default follows the calendar; LINKEDIN_VERSION stays an override for pinning one.

/** Three months before `now`: surely released, and supported for months to come. */
export function computedLinkedInVersion(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The version requests start with, as `check-connections` reports it: pinned by LINKEDIN_VERSION or following the calendar. */
export function linkedInVersionInUse(now: Date): string {
  const pinned = config().LINKEDIN_VERSION;
  return pinned ? `${pinned} (pinned by LINKEDIN_VERSION)` : `${computedLinkedInVersion(now)} (follows the calendar)`;
}

const NOTICE_MARK = "LINKEDIN_VERSION";

/**
 * The version each request of one publish carries. A configured version that LinkedIn
 * answers 426 is retried once with the computed one, which the rest of the publish keeps;
 * the owner is told through account health (auth_accounts.notice) that the override is stale.
 * A version that works clears that notice.
 */
export function linkedInVersions(db: Db, acc: Account, now: Date) {
  const computed = computedLinkedInVersion(now);
  const initial = config().LINKEDIN_VERSION ?? computed;
  let version = initial;
  let checked = false;
  return async (call: (version: string) => Promise<Answer>): Promise<Answer> => {
    const res = await call(version);
    if (res.status === 426 && version !== computed) {
      const stale = version;
      version = computed;
      await res.text().catch(() => "");
      log("warn", "LinkedIn refused the configured LINKEDIN_VERSION", { configured: stale, using: computed });
      await setNotice(
        db,
        acc,
        `${NOTICE_MARK} is set to ${stale}, which LinkedIn no longer accepts (426 NONEXISTENT_VERSION); posts go out with ${computed} ` +
          `instead. Remove LINKEDIN_VERSION from the configuration (the default follows the calendar) or set a current version.`,
      );
      return call(version);
    }
    if (!checked && res.status !== 426) {
      checked = true;
      // The version configured (or computed) now works: an older notice about it is void.
      if (version === initial && acc.notice?.startsWith(NOTICE_MARK)) await setNotice(db, acc, null);
    }
    return res;
  };
}
