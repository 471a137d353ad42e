import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config, type Config } from "@/lib/core/config";
import { privateDataDir } from "@/lib/core/private-dir";

// next-auth signs its session cookies with AUTH_SECRET. The zero-configuration start has none,
// so one is generated on first use and kept in DATA_DIR/auth-secret (mode 0600): sessions
// then survive restarts. Deployments with several server processes must set AUTH_SECRET.
// Kept for the configuration it was read under: a process's never changes, a test run's does.
let cached: { c: Config; secret: string } | undefined;

export function authSecret(): string {
  const c = config();
  if (cached?.c === c) return cached.secret;
  cached = { c, secret: readOrMake(c) };
  return cached.secret;
}

function readOrMake(c: Config): string {
  if (c.AUTH_SECRET) return c.AUTH_SECRET;
  const dir = path.resolve(c.DATA_DIR);
  const file = path.join(dir, "auth-secret");
  privateDataDir(dir);
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return fs.readFileSync(file, "utf8").trim();
}

/** Proof, under the auth secret, that this service wrote `parts` (HMAC-SHA256, base64url). */
export const signed = (...parts: string[]) => createHmac("sha256", authSecret()).update(parts.join("|")).digest("base64url");

/** Whether `given` is signed(...parts), compared in constant time. */
export function isSigned(given: string, ...parts: string[]): boolean {
  const want = Buffer.from(signed(...parts));
  const got = Buffer.from(given);
  return want.length === got.length && timingSafeEqual(want, got);
}
