#!/usr/bin/env node
// `npm run admin -- <command>`, or `node server/admin.mjs <command>` without npm's banner:
// the command line as `npm run build` bundled it (quick to start, production dependencies
// only), or its sources through tsx before a build.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.dirname(import.meta.dirname);
const built = path.join(root, ".next", "admin", "admin.mjs");
if (fs.existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(path.join(root, "lib", "transports", "cli", "admin.ts")).href);
}
