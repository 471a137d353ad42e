import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The README's first command, as a newcomer runs it: a built app started with `next start`
// on a fresh database, the owner printed once, a token from `npm run admin`, then the API.
const run = promisify(execFile);
const ROOT = process.cwd();

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

async function ensureBuild() {
  const id = path.join(ROOT, ".next", "BUILD_ID");
  const sources = Math.max(...["app", "lib", "drizzle", "components"].filter((d) => fs.existsSync(d)).map(newestSource));
  if (fs.existsSync(id) && fs.statSync(id).mtimeMs > sources) return;
  await run("npx", ["next", "build"], { cwd: ROOT, timeout: 240_000, env: { ...process.env, NODE_ENV: "production" } });
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

let port = 0;
let env: NodeJS.ProcessEnv = { ...process.env };
let dataDir = "";
let dbName: string | undefined;
let server: ChildProcess | undefined;

function start(): Promise<string> {
  server = spawn(path.join(ROOT, "node_modules/.bin/next"), ["start", "-p", String(port)], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  server.stdout!.on("data", (d) => (out += d));
  server.stderr!.on("data", (d) => (out += d));
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = async () => {
      if (/database ready|database not ready/.test(out)) return resolve(out);
      if (server!.exitCode !== null || Date.now() > deadline) return reject(new Error(`server did not start:\n${out}`));
      setTimeout(poll, 100);
    };
    void poll();
  });
}

async function stop() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server!.once("exit", r));
  server.kill("SIGTERM");
  await exited;
}

const admin = (...args: string[]) => run("npx", ["tsx", "lib/cli/admin.ts", ...args], { cwd: ROOT, env, timeout: 60_000 });

beforeAll(async () => {
  await ensureBuild();
  port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-e2e-"));
  env = { ...process.env, PORT: String(port), APP_URL: `http://localhost:${port}`, DATA_DIR: dataDir, LOG_LEVEL: "info", NODE_ENV: "production" };
  delete env.RATE_LIMIT_SCALE;
  if (process.env.DATABASE_URL) {
    dbName = `contentio_e2e_${randomBytes(5).toString("hex")}`;
    const a = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await a.unsafe(`create database ${dbName}`);
    await a.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
}, 300_000);

afterAll(async () => {
  await stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (dbName) {
    const a = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists ${dbName} with (force)`);
    await a.end();
  }
});

describe("the service started as the README says", () => {
  let password = "";
  let token = "";
  const api = (op: string, body: unknown) =>
    fetch(`http://localhost:${port}/api/v1/${op}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it("prints the owner's e-mail and password once on the first start", async () => {
    const out = await start();
    expect(out).toContain("e-mail:   owner@example.com");
    password = /password: (\S+)/.exec(out)?.[1] ?? "";
    expect(password.length).toBeGreaterThanOrEqual(12);
    const list = await fetch(`http://localhost:${port}/api/v1`).then((r) => r.json());
    expect(list.operations.map((o: { name: string }) => o.name)).toContain("fetch_item");
  });

  it("keeps the admin command off an embedded database that the server holds", async () => {
    if (env.DATABASE_URL) return; // PostgreSQL is shared by design
    const err = await admin("issue-token", "--email", "owner@example.com").catch((e) => e);
    expect(err.code).not.toBe(0);
    expect(err.stderr).toMatch(/is open in process \d+/);
  });

  it("issues a token from the command line that the restarted server accepts", async () => {
    await stop();
    const { stdout } = await admin("issue-token", "--email", "owner@example.com");
    const issued = JSON.parse(stdout);
    expect(issued).toMatchObject({ token_type: "Bearer", expires_in: 30 * 24 * 3600 });
    token = issued.access_token;
    const out = await start();
    expect(out).not.toContain("password:"); // printed on the first start only
    const created = await api("create_draft", { type: "post", body: "Boring deploys are a feature." });
    expect(created.status).toBe(200);
    const fetched = await api("fetch_item", { type: "post", id: created.body.id });
    expect(fetched.body.body).toBe("Boring deploys are a feature.");
    const updated = await api("update_draft", { type: "post", id: created.body.id, title: "Boring deploys" });
    expect(updated.body.title).toBe("Boring deploys");
    const found = await api("search_content", { query: "deploy" });
    expect(found.body.results.map((r: { id: string }) => r.id)).toContain(created.body.id);
    const del = await api("delete_draft", { type: "post", id: created.body.id });
    expect(del.body.error.code).toBe("publishing_not_allowed");
  });
});
