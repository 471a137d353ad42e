import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ensureBuild } from "../helpers/build";
import { freePort } from "../helpers/net";
import { migratedTemplate } from "../helpers/pglite-template";
import { tempDatabase, type TempDatabase } from "../helpers/temp-database";

export { freePort };

// A built server (started as `npm start` does: node server.mjs) on a free port with a fresh DATA_DIR (and a fresh PostgreSQL
// database when DATABASE_URL is set), as in server.test.ts, for browser tests.
const run = promisify(execFile);
const ROOT = process.cwd();
const TSX = path.join(ROOT, "node_modules/.bin/tsx"); // what `npx tsx` runs, without npm's start-up

const LISTENING = /^Contentio listening on /m;

export class TestServer {
  port = 0;
  env: NodeJS.ProcessEnv = { ...process.env };
  /** Everything the server has written to stdout and stderr, across its starts. */
  output = "";
  private dataDir = "";
  private db?: TempDatabase;
  private proc?: ChildProcess;

  get origin() {
    return `http://localhost:${this.port}`;
  }

  /** A fresh DATA_DIR and database for a server started with `base`'s environment (and its DATABASE_URL's PostgreSQL, if any). */
  async setup(base: NodeJS.ProcessEnv = process.env) {
    await ensureBuild();
    this.port = await freePort();
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-owner-"));
    this.env = { ...base, PORT: String(this.port), APP_URL: this.origin, DATA_DIR: this.dataDir, LOG_LEVEL: "info", NODE_ENV: "production" };
    delete this.env.RATE_LIMIT_SCALE;
    delete this.env.AUTH_SECRET; // exercise the secret kept in DATA_DIR
    if (base.DATABASE_URL) {
      this.db = await tempDatabase(base.DATABASE_URL, "contentio_owner");
      this.env.DATABASE_URL = this.db.url;
    } else {
      // The embedded database starts migrated, as a server's first start would leave it.
      const { PGlite } = await import("@electric-sql/pglite");
      await (await PGlite.create(this.dataDir, { loadDataDir: await migratedTemplate() })).close();
    }
  }

  /**
   * A server another process started and stops (tests/setup/shared-servers.ts), reached at
   * `port` with the environment it runs with: its address, the API and admin commands.
   */
  attach({ port, env }: { port: number; env: NodeJS.ProcessEnv }) {
    this.port = port;
    this.env = env;
  }

  /**
   * Starts the server and resolves with its output once `ready` shows in it (stdout or stderr)
   * and the server listens: the database line comes before a failed listen would.
   */
  start(ready = /database ready|database not ready/): Promise<string> {
    const proc = spawn(process.execPath, [path.join(ROOT, "server", "server.mjs")], { cwd: ROOT, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    this.proc = proc;
    let out = "";
    const take = (d: Buffer) => {
      out += d;
      this.output += d;
    };
    proc.stdout!.on("data", take);
    proc.stderr!.on("data", take);
    return new Promise((resolve, reject) => {
      const deadline = Date.now() + 30_000;
      const poll = () => {
        if (ready.test(out) && LISTENING.test(out)) return resolve(out);
        if (proc.exitCode !== null || Date.now() > deadline) return reject(new Error(`server did not start:\n${out}`));
        setTimeout(poll, 100);
      };
      poll();
    });
  }

  /**
   * The first start of a fresh server: it creates the owner and writes the password to a file.
   * Left running, as a self-hoster's first start is: admin commands reach the database through
   * it (lib/transports/cli/channel.ts), which spares a stop, a start and each command opening
   * the embedded database itself. stop() first to open the database from the test.
   */
  async firstStart(): Promise<{ ownerPassword: string }> {
    // Where the password is goes to stdout, the "database ready" log line to stderr: two pipes
    // with no order between them, so wait for the line itself.
    await this.start(/password: in \S+/);
    await this.channelOpen();
    return { ownerPassword: this.ownerPassword() };
  }

  /** Resolves once the server's admin channel accepts connections (it opens after the database). */
  private async channelOpen() {
    const file = path.join(this.dataDir, "admin", "admin.sock");
    for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
      const open = await new Promise<boolean>((resolve) => {
        const s = net.connect(file, () => resolve(true));
        s.once("error", () => resolve(false));
        s.once("connect", () => s.destroy());
      });
      if (open) return;
      if (!this.running || Date.now() > deadline) throw new Error(`admin channel did not open:\n${this.output}`);
    }
  }

  /** Whether a started server runs (and has not been stopped). */
  get running() {
    return this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** The password the first start wrote to DATA_DIR. */
  ownerPassword() {
    return fs.readFileSync(this.ownerPasswordFile, "utf8").trim();
  }

  /** The file the first start wrote the owner's password to. */
  get ownerPasswordFile() {
    return path.join(this.dataDir, "owner-password");
  }

  /** The exit code of the last start's process; null while it runs. */
  get exitCode() {
    return this.proc?.exitCode ?? null;
  }

  async stop() {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once("exit", r));
    p.kill("SIGTERM");
    await exited;
  }

  /** The admin command as a self-hoster runs it (the build's bundle): through the running server, if any. */
  admin(...args: string[]) {
    return run(process.execPath, [path.join(ROOT, "server", "admin.mjs"), ...args], { cwd: ROOT, env: this.env, timeout: 60_000 });
  }

  /** Stores a user's LinkedIn and X connections as sign-in would have (tests/helpers/seed-accounts.ts). */
  seedAccounts(email: string, accounts: Record<string, unknown>[]) {
    return run(TSX, ["tests/helpers/seed-accounts.ts", JSON.stringify({ email, accounts })], { cwd: ROOT, env: this.env, timeout: 60_000 });
  }

  async teardown() {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
    await this.db?.drop();
  }

  api(op: string, body: unknown, token: string) {
    return fetch(`${this.origin}/api/v1/${op}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
  }
}
