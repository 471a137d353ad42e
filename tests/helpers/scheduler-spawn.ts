import { spawn, type ChildProcess } from "node:child_process";

// Starts scheduler-process.ts as a process of its own: node itself with tsx's loader, not the
// tsx CLI, which runs the script in a child of its own that a SIGKILL of the CLI never reaches.
// So a test's kill -9 really ends the scheduler at that moment.

const started: ChildProcess[] = [];

/** A scheduler (and webhook deliverer) process on `env`'s DATABASE_URL, once it is ready. */
export async function spawnScheduler(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const p = spawn(process.execPath, ["--import", "tsx", "tests/helpers/scheduler-process.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  started.push(p);
  let out = "";
  p.stdout!.on("data", (d) => (out += d));
  p.stderr!.on("data", (d) => (out += d));
  const deadline = Date.now() + 20_000;
  while (!out.includes("scheduler ready")) {
    if (gone(p) || Date.now() > deadline) throw new Error(`scheduler process did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return p;
}

const gone = (p: ChildProcess) => p.exitCode !== null || p.signalCode !== null;

/** SIGKILL, and wait until the process is gone. */
export const kill = (p: ChildProcess) => new Promise<void>((r) => (gone(p) ? r() : (p.once("exit", () => r()), p.kill("SIGKILL"))));

/** Kills every process started here that still runs (a file's afterAll). */
export const killAll = () => Promise.all(started.map(kill));
