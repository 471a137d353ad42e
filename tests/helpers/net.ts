import { once } from "node:events";
import net from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { Worker } from "node:worker_threads";

// Ports handed out below the kernel's ephemeral range (32768 and up by default), each test
// worker its own stretch: a port picked by the kernel could be picked again, between a test's
// stops and starts, by another worker's fake or outgoing connection, and a test would then
// talk to that stranger. TEST_PORT_BASE moves the whole range, for a second test run on the
// same machine (another checkout) that must not share the first one's ports.
const BASE = Number(process.env.TEST_PORT_BASE || 20000);
const PER_WORKER = 600;
let next = 0;

/** A TCP port nothing listens on right now, on any address, and that no other test worker hands out. */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? 0) % 20;
  for (let tries = 0; tries < PER_WORKER; tries++) {
    const port = BASE + worker * PER_WORKER + (next++ % PER_WORKER);
    if (await bindable(port)) return port;
  }
  throw new Error("no free port in this worker's stretch");
}

/** Whether a listener on every interface could take `port` (so one on loopback could too). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, () => s.close(() => resolve(true)));
  });
}

// Runs on a thread of its own so that blocking it keeps the listener from accepting.
const LATE_LISTENER = `
const { parentPort, workerData } = require("node:worker_threads");
const net = require("node:net");
const server = net.createServer((s) => {
  parentPort.postMessage({ accepted: 1 });
  s.on("data", (d) => parentPort.postMessage({ bytes: d.length }));
  s.on("error", () => {});
});
server.listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
  parentPort.postMessage({ port: server.address().port });
  Atomics.wait(workerData.gate, 0, 0, 10000);
});
`;

/**
 * A loopback listener that takes a new connection only after `release()`: its queue of
 * connections is filled and its thread blocked, so the kernel drops a client's SYN until then,
 * and the client's own retry (about a second after its first) connects. Counts the bytes that
 * arrive on any connection it accepts (the fillers send none).
 */
export async function lateListener() {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(LATE_LISTENER, { eval: true, workerData: { gate } });
  const seen = { accepted: 0, bytes: 0 };
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("error", reject);
    worker.on("message", (m: { port?: number; accepted?: number; bytes?: number }) => {
      if (m.port) resolve(m.port);
      seen.accepted += m.accepted ?? 0;
      seen.bytes += m.bytes ?? 0;
    });
  });
  // Fill the queue until a connection hangs: from then on the kernel drops SYNs.
  const fillers: net.Socket[] = [];
  for (let full = false; !full && fillers.length < 8;) {
    const s = net.connect(port, "127.0.0.1").on("error", () => {});
    fillers.push(s);
    full = await Promise.race([once(s, "connect").then(() => false), delay(200).then(() => true)]);
  }
  const release = () => void (Atomics.store(gate, 0, 1), Atomics.notify(gate, 0));
  const late = {
    port,
    seen,
    release,
    /** Resolves once a connection other than the fillers' has been accepted. */
    async connected(withinMs = 5000) {
      for (const end = Date.now() + withinMs; seen.accepted <= fillers.length; await delay(20)) {
        if (Date.now() > end) throw new Error(`no connection but the fillers' within ${withinMs} ms`);
      }
    },
    async close() {
      release();
      for (const s of fillers) s.destroy();
      await worker.terminate();
    },
  };
  if (fillers.at(-1)!.readyState === "open") {
    await late.close();
    throw new Error("the listener's queue never filled");
  }
  return late;
}
