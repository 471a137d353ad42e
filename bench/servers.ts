import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { openDatabase } from "@/lib/adapters/db";
import { createUser, issueCommandLineToken } from "@/lib/domain/owner/users";
import { freePort } from "../tests/helpers/net";
import { tempDatabase } from "../tests/helpers/temp-database";
import { onCleanup, startProcess, waitForHttp, type Proc } from "./procs";

export { freePort };

export type Mode = "pglite" | "postgres";
const ROOT = process.cwd();

/** A fresh store for one mode: a temp PGlite data dir, or a new database on the local PostgreSQL. */
export async function freshStore(mode: Mode, tmp: string, pgAdminUrl: string) {
  if (mode === "pglite") return { DATA_DIR: path.join(tmp, "data") };
  const db = await tempDatabase(pgAdminUrl, "bench");
  onCleanup(db.drop);
  return { DATABASE_URL: db.url };
}

// REDIS_URL: the rate limiter's counters on Redis (bench/limiter.ts); unset, they stay in process.
export type Store = { DATA_DIR?: string; DATABASE_URL?: string; REDIS_URL?: string };

/**
 * The bench user (creator plan) and an access token for `origin`, written straight through
 * the domain layer; the database is closed again before any server opens it (PGlite's lock).
 */
export async function seed(store: Store, origin: string) {
  const d = await openDatabase({ url: store.DATABASE_URL, dataDir: store.DATA_DIR ?? null });
  try {
    const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
    const user = await createUser(d.db, { email, password: randomBytes(12).toString("hex"), plan: "creator", complete: true });
    const tok = await issueCommandLineToken(d.db, { email, appName: "bench", audience: [`${origin}/api/v1`, `${origin}/mcp`] });
    return { userId: user.id, token: tok.access_token };
  } finally {
    await d.close();
  }
}

// The children get only what they need: no DATABASE_URL/REDIS_URL leaking in from the shell.
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ["DATABASE_URL", "DATA_DIR", "REDIS_URL", "APP_URL", "PORT", "RATE_LIMIT_SCALE", "NODE_OPTIONS"]) delete env[k];
  return env;
}

export type Server = { name: "whole" | "bare"; url: string; proc: Proc };

/** The built app as `npm start` runs it (server.mjs) with the token check, the (lifted) rate limiter and the database. */
export async function startWhole(store: Store, port: number, tmp: string, pollMs = 250): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    ...store,
    APP_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    HOST: "127.0.0.1",
    RATE_LIMIT_SCALE: "100000",
    LOG_LEVEL: "warn",
    NODE_ENV: "production" as const,
  };
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (for instance) profiles the server
  // under load (node refuses --cpu-prof in NODE_OPTIONS, so these go on its command line).
  // WHOLE_ENTRY names another entry file in the project to run instead of server.mjs: a
  // before-and-after of a change to it on the same build (BARE_NODE_ARGS does the same as
  // BENCH_NODE_ARGS for the bare server).
  const args = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const proc = startProcess(
    process.execPath,
    [...args, path.join(ROOT, process.env.WHOLE_ENTRY ?? "server/server.mjs")],
    env,
    path.join(tmp, `whole-${port}.log`),
  );
  await waitForHttp(`http://127.0.0.1:${port}/api/v1`, proc, 90_000, pollMs);
  return { name: "whole", url: `http://127.0.0.1:${port}/api/v1`, proc };
}

/** The bare node:http baseline (bench/bare-server.ts) for one user's items. */
export async function startBare(store: Store, port: number, userId: string, tmp: string): Promise<Server> {
  const env = { ...baseEnv(), ...store, BARE_PORT: String(port), BENCH_USER_ID: userId };
  const proc = startProcess(
    process.execPath,
    [...(process.env.BARE_NODE_ARGS ?? "").split(" ").filter(Boolean), "--import", "tsx", path.join(ROOT, "bench/bare-server.ts")],
    env,
    path.join(tmp, `bare-${port}.log`),
  );
  await waitForHttp(`http://127.0.0.1:${port}/health`, proc);
  return { name: "bare", url: `http://127.0.0.1:${port}`, proc };
}

export function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-bench-"));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
