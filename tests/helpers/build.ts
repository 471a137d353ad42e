import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

// Browser tests, server tests and the benchmark run the built app (`npm start`, server.mjs): this
// builds it when the build is older than any source file.
const run = promisify(execFile);
const ROOT = process.cwd();

function newest(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n = Math.max(n, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return n;
}

/**
 * Builds the app unless the build is newer than every source file. Test files run in
 * parallel workers, so a lock directory makes the others wait for one build.
 */
export async function ensureBuild() {
  const id = path.join(ROOT, ".next", "BUILD_ID");
  const lock = path.join(ROOT, ".next-build.lock");
  const fresh = () => {
    const sources = Math.max(
      ...["app", "lib", "drizzle", "components"].filter((d) => fs.existsSync(d)).map(newest),
      ...["next.config.mjs", "instrumentation.ts"].map((f) => fs.statSync(f).mtimeMs),
    );
    return fs.existsSync(id) && fs.statSync(id).mtimeMs > sources;
  };
  if (fresh()) return;
  for (const deadline = Date.now() + 600_000; ;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock older than any build is left over from a killed run.
      if (fs.existsSync(lock) && Date.now() - fs.statSync(lock).mtimeMs > 600_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error("timed out waiting for another test's build");
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (!fresh()) {
      const started = new Date();
      await run("npm", ["run", "build"], { cwd: ROOT, timeout: 300_000, env: { ...process.env, NODE_ENV: "production" } });
      // Stamped with the start: a file edited while the build ran counts as newer than it.
      fs.utimesSync(id, started, started);
    }
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
