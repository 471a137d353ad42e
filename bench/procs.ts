import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";

// Every process and clean-up step the bench starts, so that an error or Ctrl-C still
// leaves nothing behind (servers run in their own process group and die as a group).
const cleanups: Array<() => Promise<void> | void> = [];
export const onCleanup = (fn: () => Promise<void> | void) => cleanups.push(fn);

export async function cleanupAll() {
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (e) {
      process.stderr.write(`cleanup: ${e instanceof Error ? e.message : e}\n`);
    }
  }
}

export type Proc = { child: ChildProcess; pid: number; log: string; stop: () => Promise<void> };

/** Starts a process group with its output in `log`; stop() ends the whole group and waits. */
export function startProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv, log: string): Proc {
  const out = fs.openSync(log, "a");
  const child = spawn(cmd, args, { env, detached: true, stdio: ["ignore", out, out] });
  fs.closeSync(out);
  const pid = child.pid!;
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopGroup(pid));
  onCleanup(stop);
  return { child, pid, log, stop };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stopGroup(pid: number) {
  // Children (next-server) are collected first: they must be gone before another server
  // opens the same PGlite data directory.
  const pids = treePids(pid);
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {}
  };
  signal("SIGTERM");
  for (let i = 0; i < 100 && pids.some(alive); i++) await sleep(100);
  if (pids.some(alive)) {
    signal("SIGKILL");
    for (const p of pids)
      try {
        process.kill(p, "SIGKILL");
      } catch {}
    for (let i = 0; i < 50 && pids.some(alive); i++) await sleep(100);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process and its descendants (via /proc/<pid>/task/<tid>/children). */
export function treePids(root: number): number[] {
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const t of tasks) {
      let kids = "";
      try {
        kids = fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8");
      } catch {}
      for (const k of kids.split(/\s+/).filter(Boolean)) walk(Number(k));
    }
  };
  walk(root);
  return out;
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** RSS of a process tree now, in MB. */
export const rssMb = (root: number) => Math.round(treePids(root).reduce((sum, p) => sum + rssKb(p), 0) / 1024);

/** Samples the RSS of a process tree every `everyMs`; stop() gives the peak in MB. */
export function sampleRss(root: number, everyMs = 200) {
  let peakKb = 0;
  const tick = () => {
    const kb = treePids(root).reduce((sum, p) => sum + rssKb(p), 0);
    if (kb > peakKb) peakKb = kb;
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return Math.round(peakKb / 1024);
    },
  };
}

/** A process's /proc/<pid>/stat fields after its name (so field 3, the state, is [0]). */
export function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * CPU time (user + system, ms) used so far by a process tree: divided by the requests served
 * it gives CPU per request, a figure that holds up better than req/s on a shared machine.
 * (Assumes the usual 100 clock ticks a second.)
 */
export function cpuMs(root: number): number {
  let ticks = 0;
  for (const pid of treePids(root)) {
    try {
      const f = statFields(pid);
      ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    } catch {}
  }
  return ticks * 10;
}

/** Polls until the URL answers anything below 500 (or throws after `timeoutMs`). */
export async function waitForHttp(url: string, proc: Proc, timeoutMs = 90_000, everyMs = 250) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) break;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {}
    await sleep(everyMs);
  }
  const tail = fs.existsSync(proc.log) ? fs.readFileSync(proc.log, "utf8").slice(-2000) : "";
  throw new Error(`${url} did not come up (exit code ${proc.child.exitCode}).\n${tail}`);
}
