// Next's request context switched on only while Next serves something, for `npm start`
// (server.mjs; measured in docs/performance.md). Next keeps each request's context in
// AsyncLocalStorage instances, and so does the React it bundles (one for a page's server
// render, one for its HTML). On Node 20 an enabled instance runs a hook on every promise the
// process makes, whoever makes it, and an instance stays enabled once used. So once Next had
// served anything (a page, the operation list, OpenAPI), every API and MCP call paid for that
// hook on each of its promises, a noticeable share of a REST call's CPU and more of an MCP
// call's, although server.mjs hands those routes to their handlers outside Next and they
// never read its context. Here Next's instances are disabled once no request of Next's own has been in
// flight for GRACE_MS, which turns the hook off; Next's next request turns them on again,
// since `run()` enables its instance before the request makes its first promise.
import asyncHooks from "node:async_hooks";
import path from "node:path";

const GRACE_MS = 2000;
const NEXT_FILES = `${path.sep}node_modules${path.sep}next${path.sep}`;

/** Whether the code that constructed an instance (the frame above the constructor) is Next's. */
const madeByNext = (stack) => (stack?.split("\n")[2] ?? "").includes(NEXT_FILES);

/**
 * Call before Next is loaded. Next and its React take AsyncLocalStorage from `async_hooks`
 * when they first need it (Next through `globalThis.AsyncLocalStorage`, which it fills from
 * there), so every instance they make is a subclass known here; instances anyone else makes
 * are left alone. Returns `begin`, called as each request handed to Next starts; the function
 * it returns is called once Next is done with that request (its handler settled and its
 * response closed). `isNext` decides whose instances are tracked (for tests).
 */
export function trackNextContext({ graceMs = GRACE_MS, isNext = madeByNext } = {}) {
  const instances = new Set(); // WeakRefs: nothing is kept alive for this
  const Base = asyncHooks.AsyncLocalStorage;
  // Defined rather than assigned: from Node 22 on, `async_hooks` offers the class through a
  // getter alone, and an assignment throws.
  Object.defineProperty(asyncHooks, "AsyncLocalStorage", {
    configurable: true,
    enumerable: true,
    writable: true,
    value: class AsyncLocalStorage extends Base {
      constructor() {
        super();
        if (isNext(new Error().stack)) instances.add(new WeakRef(this));
      }
    },
  });
  let inFlight = 0;
  let timer;
  // Armed when the last request ends, cleared when one begins: it runs only with none in flight.
  const quiet = () => {
    for (const ref of instances) {
      const context = ref.deref();
      if (context) context.disable();
      else instances.delete(ref);
    }
  };
  return function begin() {
    inFlight++;
    clearTimeout(timer);
    let ended = false;
    return function end() {
      if (ended) return;
      ended = true;
      if (--inFlight === 0) timer = setTimeout(quiet, graceMs).unref();
    };
  };
}
