import http from "node:http";

/**
 * Requests at evenly spaced moments, `rate` a second for `durationS` seconds: an open loop, in
 * which a slow answer never delays the next request (autocannon's `overallRate` is not one: each
 * connection sends its share of a second back to back, then waits for the next second). Each
 * latency runs from the moment its request was due, so a request sent late by a busy loop here
 * counts its wait too; or from when it was sent, if a timer (whole milliseconds) sent it early.
 * `bad`: answers other than 200, failures, timeouts.
 */
export async function openLoop(url: string, headers: Record<string, string>, body: string, rate: number, durationS: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const times: number[] = [];
  let bad = 0;
  const total = Math.round(rate * durationS);
  const start = performance.now() + 50;
  const pending: Array<Promise<void>> = [];
  try {
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const from = Math.min(due, performance.now());
      pending.push(
        post(agent, url, headers, body).then(
          (status) => {
            if (status === 200) times.push(performance.now() - from);
            else bad++;
          },
          () => void bad++,
        ),
      );
    }
    await Promise.all(pending);
  } finally {
    agent.destroy();
  }
  return { times, bad };
}

function post(agent: http.Agent, url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) }, timeout: 10_000 }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
      res.once("error", reject);
    });
    req.once("timeout", () => req.destroy(new Error("timeout")));
    req.once("error", reject);
    req.end(body);
  });
}
