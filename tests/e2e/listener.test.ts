import net from "node:net";
import os from "node:os";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestServer } from "./harness";

// Where the built server listens. Without APP_URL the service takes itself for a loopback one
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
