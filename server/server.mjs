// `npm start`: the built app behind a plain node:http server. `next start` would do, except
// that a route handler cannot see the connection's address, and Next fills X-Forwarded-For
// with it only when the client sent none: a client could then pick its own address and
// with it a fresh rate-limit budget. Here the forwarding headers are settled before Next
// sees them, following TRUST_PROXY (how many reverse proxies stand in front):
//   0: every X-Forwarded-* header is dropped, so Next records the connection's address;
//   N: the connection's address is appended to X-Forwarded-For, and the app reads the
//      address the Nth proxy saw (lib/transports/http/client-address.ts).
import http from "node:http";
import path from "node:path";
import { bodyLimits } from "./body-limits.mjs";
import { isLoopbackListenAddress } from "../lib/core/address-policy.mjs";
import { directRoute } from "./direct-routes.mjs";
import { lingerOnUnreadBodies } from "./lingering-close.mjs";
import { settleMemory } from "./memory.mjs";

// Each of the front server's run-time hooks can be left off (FRONT_HOOKS_OFF=memory,direct), to
// measure what it gains with the same build (docs/performance.md).
const off = new Set((process.env.FRONT_HOOKS_OFF ?? "").split(",").map((h) => h.trim()));
// V8's memory settings, before Next is loaded (memory.mjs).
const sawRequest = off.has("memory") ? () => {} : settleMemory();
const { default: next } = await import("next");

const env = process.env;
/** The project: Next's build and the route files are there, one folder up. */
const ROOT = path.dirname(import.meta.dirname);
const port = Number(env.PORT || 3000);
// Without APP_URL the service takes itself for a loopback one (loopback webhook targets
// allowed, INNGEST_DEV's guard skipped: lib/core/config.ts), so it then listens on loopback only.
// With it, every interface unless HOST says otherwise, like `next start`.
const host = env.HOST || (env.APP_URL ? undefined : "127.0.0.1");
const trustProxy = env.TRUST_PROXY ? Number(env.TRUST_PROXY) : 0;
const keepAlive = env.KEEP_ALIVE_TIMEOUT_SECONDS ? Number(env.KEEP_ALIVE_TIMEOUT_SECONDS) : 65;
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`PORT must be a port number, not ${env.PORT}`);
if (!Number.isInteger(trustProxy) || trustProxy < 0 || trustProxy > 10) fail(`TRUST_PROXY must be a whole number from 0 to 10, not ${env.TRUST_PROXY}`);
if (!Number.isInteger(keepAlive) || keepAlive < 1 || keepAlive > 7200) {
  fail(`KEEP_ALIVE_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 7200, not ${env.KEEP_ALIVE_TIMEOUT_SECONDS}`);
}
if (!env.APP_URL && !isLoopbackListenAddress(host)) {
  fail(`HOST=${host} listens beyond this machine: set APP_URL to the address its clients use (without it the service takes itself for a loopback one)`);
}

function fail(message) {
  console.error(`Invalid configuration: ${message}`);
  process.exit(1);
}

// Other headers through which a client could claim an address or a host.
const FORWARDING = /^(x-forwarded-|forwarded$|x-real-ip$)/;

function settleForwarding(req) {
  const socketAddress = req.socket.remoteAddress;
  if (trustProxy === 0) {
    for (const name of Object.keys(req.headers)) if (FORWARDING.test(name)) delete req.headers[name];
    // Filled by Next from the socket too; set here so it never depends on Next's defaults.
    if (socketAddress) req.headers["x-forwarded-for"] = socketAddress;
    return;
  }
  if (!socketAddress) return;
  const chain = req.headers["x-forwarded-for"];
  req.headers["x-forwarded-for"] = chain ? `${chain}, ${socketAddress}` : socketAddress;
}

env.NODE_ENV = "production";
const app = next({ dev: false, dir: ROOT, hostname: host ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();

/** Next answers the request. */
function toNext(req, res) {
  handle(req, res).catch((e) => {
    // The redacting log by now (instrumentation.ts ran in prepare()): never the raw error.
    console.error(e);
    if (!res.headersSent) res.writeHead(500).end();
  });
}

const origin = (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, "");
// Whatever Next answers has its body capped first (body-limits.mjs).
const refusesBody = bodyLimits(origin);
const toNextCapped = (req, res) => refusesBody(req, res) || toNext(req, res);

// The API and MCP routes' own handlers, without Next's pipeline (direct-routes.mjs).
const direct = off.has("direct") ? () => false : directRoute(ROOT, toNextCapped);

const server = http.createServer((req, res) => {
  sawRequest();
  settleForwarding(req);
  if (!direct(req, res)) toNextCapped(req, res);
});
// An idle connection is kept longer than a reverse proxy keeps its own (Node's default is
// shorter than most load balancers'): one that closed first would have the proxy reuse a dead
// connection and answer 502. Headers may take a moment longer than that, and a whole request
// no less.
server.keepAliveTimeout = keepAlive * 1000;
// An answer given before its body arrived whole is read by the client, not lost to a reset
// (lingering-close.mjs).
lingerOnUnreadBodies(server);
server.headersTimeout = server.keepAliveTimeout + 1000;
server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout);

const listening = env.APP_URL ? `http://${host ?? "localhost"}:${port}` : `http://localhost:${port} (this machine only: set APP_URL to serve others)`;
// Without this, a port already taken would leave the process running and serving nothing
// (Next logs uncaught exceptions and carries on).
server.once("error", (e) =>
  fail(
    e.code === "EADDRINUSE"
      ? `PORT ${port} is already in use on ${host ?? "every interface"}: stop what listens there or choose another PORT`
      : `cannot listen on port ${port}: ${e.message}`,
  ),
);
server.listen(port, host, () => console.log(`Contentio listening on ${listening}`));

// Like `next start`: finish the requests in flight, then exit (which also releases the
// embedded database's lock file).
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(() => process.exit(signal === "SIGINT" ? 130 : 143));
    server.closeIdleConnections();
    setTimeout(() => process.exit(signal === "SIGINT" ? 130 : 143), 10_000).unref();
  });
}
