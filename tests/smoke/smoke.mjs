// The smoke run (tests/smoke/run.sh): under the Node.js that runs this file, the built app
// starts on a fresh embedded database, a draft is created, published to the sandbox after the
// owner's approval, its sandbox page served, and an MCP client initializes and calls a tool;
// then the server stops. The build is reused when it is newer than every source (Next's
// output is plain JavaScript and the native modules use Node-API, so a build made by another
// supported Node.js runs as it is); otherwise this Node.js builds it.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "../helpers/build.ts";

const started = Date.now();
const say = (s) => console.log(`smoke (Node ${process.version}): ${s}`);
const fail = (s) => {
  throw new Error(s);
};

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

await ensureBuild();
say(`build ready (${Math.round((Date.now() - started) / 1000)} s)`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "contentio-smoke-"));
const port = await freePort();
const origin = `http://localhost:${port}`;
const email = "smoke@example.com";
const env = { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, OWNER_EMAIL: email };
for (const name of ["DATABASE_URL", "REDIS_URL", "APP_URL", "HOST", "INNGEST_DEV", "INNGEST_EVENT_KEY", "SMTP_URL"]) delete env[name];

const server = spawn(process.execPath, ["server/server.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
let log = "";
server.stdout.on("data", (d) => (log += d));
server.stderr.on("data", (d) => (log += d));
const exited = new Promise((resolve) => server.once("exit", resolve));

/** `npm run admin -- ...` as the running server takes it, under this Node.js. */
function admin(...args) {
  const r = spawnSync(process.execPath, ["server/admin.mjs", ...args], { env, encoding: "utf8", timeout: 30_000 });
  if (r.status !== 0) fail(`admin ${args[0]} failed: ${r.stderr || r.stdout}`);
  return JSON.parse(r.stdout);
}

async function api(token, operation, body) {
  const res = await fetch(`${origin}/api/v1/${operation}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** One JSON-RPC message to /mcp as a 2025-06-18 client sends it; the answer may come as JSON or as one server-sent event. */
async function mcp(token, message, session) {
  const res = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      ...(session && { "mcp-session-id": session }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...message }),
  });
  const text = await res.text();
  if (!res.ok) fail(`MCP ${message.method} answered ${res.status}: ${text}`);
  const json = res.headers.get("content-type")?.startsWith("text/event-stream") ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return { session: res.headers.get("mcp-session-id"), body: json ? JSON.parse(json) : null };
}

try {
  for (let ready = false, deadline = Date.now() + 60_000; !ready;) {
    if (server.exitCode !== null) fail(`the server stopped (exit ${server.exitCode})`);
    if (Date.now() > deadline) fail("the server was not ready within 60 s");
    ready = await fetch(`${origin}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 200));
  }
  say(`server ready on port ${port}`);

  const token = admin("issue-token", "--email", email, "--app", "Smoke run").access_token;
  admin("allow-publishing", "--email", email);
  const text = `Written by the smoke run under Node ${process.version}`;
  const draft = await api(token, "create_draft", { type: "post", body: text });
  if (draft.status !== 200) fail(`create_draft: ${JSON.stringify(draft.body)}`);
  const asked = await api(token, "publish_now", { type: "post", id: draft.body.id });
  const confirmation = asked.body.error?.confirmation;
  if (asked.status !== 403 || !confirmation) fail(`publish_now without approval: ${JSON.stringify(asked.body)}`);
  admin("approve", "--email", email, "--id", confirmation.id);
  const published = await api(token, "publish_now", { type: "post", id: draft.body.id });
  if (published.status !== 200 || !published.body.url) fail(`publish_now: ${JSON.stringify(published.body)}`);
  const page = await fetch(published.body.url);
  if (page.status !== 200 || !(await page.text()).includes(text)) fail(`the sandbox page ${published.body.url} answered ${page.status}`);
  say("draft created, approved, published to the sandbox, its page served");

  const init = await mcp(token, {
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "smoke", version: "1" } },
  });
  if (!init.body?.result?.serverInfo) fail(`initialize: ${JSON.stringify(init.body)}`);
  await mcp(token, { method: "notifications/initialized" }, init.session);
  const call = await mcp(token, { id: 2, method: "tools/call", params: { name: "fetch_item", arguments: { type: "post", id: draft.body.id } } }, init.session);
  const item = call.body?.result?.structuredContent;
  if (call.body?.result?.isError || item?.status !== "published") fail(`tools/call fetch_item: ${JSON.stringify(call.body)}`);
  say("MCP initialize and tools/call answered");
} catch (e) {
  console.error(`smoke run failed: ${e instanceof Error ? e.message : e}\n--- server output ---\n${log.slice(-4000)}`);
  process.exitCode = 1;
} finally {
  server.kill("SIGTERM");
  const stopped = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
  if (!stopped) {
    server.kill("SIGKILL");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (!process.exitCode) say(`passed in ${Math.round((Date.now() - started) / 1000)} s, server stopped`);
