import net from "node:net";
import os from "node:os";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestServer } from "./harness";

// Where and how the built server listens. Without APP_URL the service takes itself for a loopback one
// (loopback webhook targets allowed, INNGEST_DEV's guard skipped): it must then be reachable
// from this machine only. This machine's own outward address stands for another machine.
const srv = new TestServer();
const outside = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === "IPv4")?.address;

beforeAll(() => srv.setup(), 600_000);
afterEach(() => srv.stop());
afterAll(() => srv.teardown());

/** Whether a connection to `host` on the server's port is accepted. */
const accepts = (host: string) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(srv.port, host);
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });

describe.runIf(outside)("without APP_URL", () => {
  it("listens on loopback only: reachable from this machine, not from another", async () => {
    delete srv.env.APP_URL;
    delete srv.env.HOST;
    const out = await srv.start();
    expect(await accepts(outside!)).toBe(false);
    expect((await fetch(`http://127.0.0.1:${srv.port}/api/v1`)).status).toBe(200);
    expect(out).toContain("set APP_URL"); // the start says how to serve others
  });

  it("refuses to start on every interface, saying why", async () => {
    delete srv.env.APP_URL;
    srv.env.HOST = "0.0.0.0";
    const failed = await srv.start().catch((e: Error) => e.message);
    expect(failed).toMatch(/HOST=0\.0\.0\.0 .*APP_URL/);
  });

  it("with APP_URL naming a public origin, listens on every interface as before", async () => {
    srv.env.APP_URL = `http://${outside}:${srv.port}`;
    delete srv.env.HOST;
    await srv.start();
    expect(await accepts(outside!)).toBe(true);
    expect((await fetch(`http://${outside}:${srv.port}/api/v1`)).status).toBe(200);
  });
});

/**
 * Sends `GET /api/v1` on one connection, waits `idleMs`, and sends it again on the same
 * connection, as a reverse proxy reuses its idle connections: the second answer's status, or 0
 * when the server had closed the connection by then.
 */
function twiceOnOneConnection(idleMs: number) {
  return new Promise<{ keepAlive: string; second: number }>((resolve) => {
    const s = net.connect(srv.port, "127.0.0.1");
    const request = () => s.write(`GET /api/v1 HTTP/1.1\r\nHost: localhost:${srv.port}\r\n\r\n`);
    let raw = "";
    let again = false;
    const statuses = () => [...raw.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    const answer = () => ({ keepAlive: /^keep-alive: *(.*?)\r$/im.exec(raw)?.[1] ?? "", second: statuses()[1] ?? 0 });
    s.on("data", (d) => {
      raw += d;
      // Once, however the first answer arrives in chunks (nothing is added to `raw`, so the
      // second status line still starts a line).
      if (statuses().length === 1 && !again) {
        again = true;
        setTimeout(request, idleMs);
      }
      if (statuses().length === 2) s.destroy();
    });
    s.on("error", () => {});
    s.once("close", () => resolve(answer()));
    s.once("connect", request);
  });
}

describe("keep-alive, for a reverse proxy's idle connections", () => {
  it("by default, an idle connection is kept past a load balancer's usual idle time (its header says so)", async () => {
    srv.env.APP_URL = srv.origin;
    delete srv.env.KEEP_ALIVE_TIMEOUT_SECONDS;
    await srv.start();
    // Node's default closes it after a few seconds: a proxy reusing it then gets a 502.
    expect(await twiceOnOneConnection(6500)).toEqual({ keepAlive: "timeout=65", second: 200 });
  }, 90_000);

  it("KEEP_ALIVE_TIMEOUT_SECONDS sets it", async () => {
    srv.env.KEEP_ALIVE_TIMEOUT_SECONDS = "2";
    await srv.start();
    expect(await twiceOnOneConnection(4000)).toEqual({ keepAlive: "timeout=2", second: 0 });
  }, 90_000);

  it("a value that is not a whole number of seconds stops the start with a clear message", async () => {
    for (const bad of ["0", "1.5", "soon"]) {
      srv.env.KEEP_ALIVE_TIMEOUT_SECONDS = bad;
      const failed = await srv.start().catch((e: Error) => e.message);
      expect(failed).toContain(`KEEP_ALIVE_TIMEOUT_SECONDS must be a whole number of seconds`);
    }
    delete srv.env.KEEP_ALIVE_TIMEOUT_SECONDS;
  }, 90_000);
});

describe("a port already taken", () => {
  it("stops the start with a clear message rather than running without listening", async () => {
    srv.env.APP_URL = srv.origin;
    const other = net.createServer((s) => s.destroy());
    await new Promise<void>((resolve) => other.listen(srv.port, "127.0.0.1", resolve));
    try {
      const failed = await srv.start().catch((e: Error) => e.message);
      expect(failed).toContain(`PORT ${srv.port} is already in use`);
      expect(srv.exitCode).toBe(1);
    } finally {
      other.close();
    }
  }, 90_000);
});
