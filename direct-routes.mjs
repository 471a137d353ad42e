// The API and MCP endpoints without Next's request pipeline, for `npm start` (server.mjs).
//
// A small read through Next pays for routing, request adaptation and response handling
// before the route's own code runs, more than the whole answer costs without it
// (docs/performance.md, "The request path"). These two routes need none of it (no pages, no middleware, no cookies, no
// caching), so server.mjs hands them to the very handler functions their route files export,
// taken from Next's build of those files: one door, nothing restated, the same module
// instances Next itself uses for every other route. The API's route file also exports
// `direct`, the same operation handler reading Node's request and writing Node's response:
// building a web Request, its Headers, a body stream and a Response for each call cost a
// large share of a small read's CPU (docs/performance.md). MCP's handler gets a web Request (the SDK's transport reads
// one). `next dev` keeps going through the route files. Anything these patterns do not match
// goes to Next unchanged.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

// Exactly the paths Next would route to these files: one operation name (letters and
// underscores; `openapi.json` and anything encoded or nested stay with Next), or /mcp.
const ROUTES = [
  { pattern: /^\/api\/v1\/([a-z_]{1,64})(?:\?|$)/, file: "api/v1/[operation]/route.js", params: (m) => ({ operation: m[1] }) },
  { pattern: /^\/mcp(?:\?|$)/, file: "mcp/route.js", params: () => ({}) },
];

/**
 * The route's exported method handlers from the build in `dir`, loaded on first use: the
 * handlers, or while they load a promise of them. A route file that imports an ESM package
 * kept outside the bundle (drizzle-orm: next.config.mjs) is an async module, whose handlers
 * Next's route module has only once it has loaded them (`ensureUserland`). A build without
 * them (never expected) leaves the route to Next rather than failing the request.
 */
function handlersOf(dir, route) {
  route.loading ??= load(dir, route).then((handlers) => (route.handlers = handlers));
  return route.handlers ?? route.loading;
}

async function load(dir, route) {
  try {
    const { routeModule } = require(path.join(dir, ".next", "server", "app", route.file));
    await routeModule.ensureUserland?.();
    return routeModule.userland;
  } catch (e) {
    console.error(`direct route ${route.file} unavailable, Next answers it:`, e);
    return {};
  }
}

/**
 * Answers `req` if it is for one of the direct routes and a method its file exports; false
 * otherwise (then Next answers it, including HEAD and OPTIONS it fills in itself). A request
 * that arrives while its route's handlers are still loading waits for them, and goes to
 * `toNext` if its method is not among them.
 */
export function directRoute(dir, origin, toNext) {
  const serve = (req, res, route, m, handlers) => {
    if (!handlers[req.method ?? ""]) return false;
    // A route that answers Node's request itself (the API) is given it as it is; the
    // others get a web Request (MCP: the SDK's transport reads one).
    if (handlers.direct) void guarded(res, () => handlers.direct(req, res, route.params(m)));
    else void answer(req, res, handlers[req.method], route.params(m), origin);
    return true;
  };
  return (req, res) => {
    for (const route of ROUTES) {
      const m = route.pattern.exec(req.url ?? "");
      if (!m) continue;
      const handlers = handlersOf(dir, route);
      if (!(handlers instanceof Promise)) return serve(req, res, route, m, handlers);
      void handlers.then((loaded) => serve(req, res, route, m, loaded) || toNext(req, res));
      return true;
    }
    return false;
  };
}

async function answer(req, res, handler, params, origin) {
  // A client that hangs up aborts the request's signal, as it does under Next.
  const aborted = new AbortController();
  res.once("close", () => res.writableFinished || aborted.abort());
  await guarded(res, async () => send(await handler(toRequest(req, origin, aborted.signal), { params: Promise.resolve(params) }), res));
}

/** Runs a handler that writes `res`; a failure it did not answer itself is a bare 500. */
async function guarded(res, run) {
  try {
    await run();
  } catch (e) {
    // The redacting log (instrumentation.ts): a database error's parameters never reach stderr.
    console.error(e);
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  }
}

/**
 * A web Request whose `signal` is the connection's. Given to the constructor instead, a signal
 * is followed through a WeakRef and a FinalizationRegistry, which V8's young-generation
 * collector treats as strong: every request then carried garbage into the old generation,
 * and under load the server ran frequent full collections and longer scavenges
 * (docs/performance.md, "The request path").
 */
class DirectRequest extends Request {
  #signal;
  constructor(url, init, signal) {
    super(url, init);
    this.#signal = signal;
  }
  get signal() {
    return this.#signal;
  }
}

function toRequest(req, origin, signal) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new DirectRequest(new URL(req.url, origin), { method: req.method, headers, ...(hasBody && { body: bodyStream(req), duplex: "half" }) }, signal);
}

/**
 * The request body as a web stream that the handlers read up to their own size limits: the
 * socket is paused while a chunk waits to be read. Cheaper than Readable.toWeb for the small
 * bodies almost every call has.
 */
function bodyStream(req) {
  let open = true;
  return new ReadableStream({
    start(controller) {
      req.on("data", (chunk) => {
        if (!open) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if (controller.desiredSize <= 0) req.pause();
      });
      req.once("end", () => open && ((open = false), controller.close()));
      req.once("error", (e) => open && ((open = false), controller.error(e)));
    },
    pull: () => void req.resume(),
    // Past a handler's limit: the rest is read and dropped, so that its answer still arrives
    // (server.requestTimeout bounds a client that never stops sending).
    cancel: () => {
      open = false;
      req.resume();
    },
  });
}

async function send(response, res) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  if (!response.body) return void res.end();
  // Server-sent events go out as they come; anything else is a small, finished answer.
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    return void res.end(Buffer.from(await response.arrayBuffer()));
  }
  res.flushHeaders();
  for await (const chunk of response.body) {
    if (res.destroyed) break;
    res.write(chunk);
  }
  res.end();
}
