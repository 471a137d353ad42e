import { config } from "@/lib/core/config";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

/**
 * One JSON line per event on stderr. Callers pass facts, never credentials: request bodies,
 * Authorization headers and tokens are not logged anywhere.
 */
export function log(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (LEVELS[level] < LEVELS[config().LOG_LEVEL]) return;
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + "\n");
}
