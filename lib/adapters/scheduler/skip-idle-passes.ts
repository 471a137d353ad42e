import { dataVersion } from "@/lib/adapters/db/data-version";

// Passes that would find nothing are not run. One read says when work next comes due (a
// draft's time, a stuck claim's limit, a webhook's retry); a pass runs only once that moment
// has come, so an idle loop costs that one read instead of a whole pass's statements. (A pass
// writes even when it finds nothing, and that write would wake the other loop below.)
// On the embedded database every write goes through this process and moves its data version
// (lib/adapters/db/data-version.ts): while it stands still, the last read still holds and is not
// repeated, so an idle embedded server runs no statement at all. PostgreSQL has other
// writers (other processes, psql) and no version: there the read is repeated every poll.

/** A full pass at least this often anyway, for what no row says (a clock set back). */
export const FULL_PASS_AT_LEAST_EVERY_MS = 60_000;

/** Reads (and only reads) when work next comes due: a moment, possibly past, or null for never. */
export type NextWork = () => Promise<Date | null>;

export type PassGate = {
  /** Whether a pass should run now; reads `next` unless nothing was written since it last did. */
  due(db: object, next: NextWork): Promise<boolean>;
  /** After a pass: reads `next` again, for the wait and the ticks to come. */
  passed(db: object, next: NextWork): Promise<void>;
  /** How long to sleep: until the next poll, or sooner when work comes due sooner. */
  wait(pollMs: number): number;
};

export function skipIdlePasses(now: () => number = Date.now): PassGate {
  let version: number | undefined; // the data version `due` was read at, if it held throughout
  let due = 0;
  let lastPass = -Infinity;
  const read = async (db: object, next: NextWork) => {
    const v = dataVersion(db);
    const at = await next();
    version = v !== undefined && dataVersion(db) === v ? v : undefined;
    due = at?.getTime() ?? Infinity;
  };
  return {
    async due(db, next) {
      const v = dataVersion(db);
      if (v === undefined || v !== version) await read(db, next);
      return now() >= due || now() - lastPass >= FULL_PASS_AT_LEAST_EVERY_MS;
    },
    async passed(db, next) {
      lastPass = now();
      await read(db, next);
    },
    wait(pollMs) {
      const left = due - now();
      // Work already due (a retry waiting out its backoff, say) is found by polling.
      return left > 0 ? Math.min(pollMs, left + 2) : pollMs;
    },
  };
}
