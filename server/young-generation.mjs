// V8's young generation sized to the traffic, for `npm start` (server.mjs; measured in
// docs/performance.md). V8 doubles the young generation whenever much of it survives a collection,
// up to 32 MB, which start-up (the app being loaded) and the first requests (each route
// loaded on first use) both do. It shrinks it again only in a full collection that finds
// little allocated since the previous collection, 5 s or more before: its memory reducer gets
// there only well after traffic stops, so an idle server held memory it did not use, more so
// after sustained load. Here the young generation may grow only while requests come at
// 50 a second or more, where a small one would cost CPU (collections of objects still in
// use). When such traffic stops, a young collection marks the end of what it allocated, and
// a full collection 5.5 s later gives back what it grew.
import { performance, PerformanceObserver } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";

const TICK_MS = 500;
const BUSY_PER_TICK = 25; // 50 requests a second
const QUIET_MS = 1000;
const SINCE_GC_MS = 5500;

// Read by V8 at each collection; 2 is its default. Never 0 (V8 crashes).
const growth = (factor) => v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);

/** Keeps the young generation small from now on (start-up included) until traffic needs more. */
export function watchTraffic() {
  growth(1);
  // The only way to ask V8 for a collection: `gc` of a context made while --expose-gc is set.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  v8.setFlagsFromString("--no-expose-gc");
  let lastGc = performance.now();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) lastGc = Math.max(lastGc, e.startTime + e.duration);
  }).observe({ entryTypes: ["gc"] });
  const collect = (type) => {
    if (typeof gc === "function") gc({ type });
    lastGc = performance.now();
  };
  let lastRequest = 0;
  let requests = 0;
  let busy = false; // the young generation may grow
  let marked = false; // this quiet spell's young collection has run
  setInterval(() => {
    if (!busy && requests >= BUSY_PER_TICK) {
      busy = true;
      growth(2);
    }
    requests = 0;
    if (!busy || performance.now() - lastRequest < QUIET_MS) return;
    if (!marked) {
      marked = true;
      collect("minor");
    } else if (performance.now() - lastGc >= SINCE_GC_MS) {
      busy = false;
      growth(1);
      collect("major");
    }
  }, TICK_MS).unref();
  return function sawRequest() {
    lastRequest = performance.now();
    requests++;
    marked = false;
  };
}
