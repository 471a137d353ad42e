// The API and MCP endpoints without Next's request pipeline, for `npm start` (server.mjs).
//
// A small read through Next pays for routing, request adaptation and response handling
// before the route's own code runs, more than the whole answer costs without it
// (docs/performance.md, "The request path"). These two routes need none of it (no pages, no
// middleware, no cookies, no caching), so server.mjs hands them to the `direct` export of
// their route files, taken from Next's build of those files: one door, nothing restated, the
// same module instances Next itself uses for every other route. `direct` is the route's own
// handler reading Node's request and writing Node's response: the API's builds no web object
// at all (building a web Request, its Headers, a body stream and a Response for each call cost
// a large share of a small read's CPU: docs/performance.md); MCP's builds the web Request the
// SDK's transport reads, without a body.
//
// This file reads no request body. A front-server .mjs file cannot import the TypeScript
// reader, and a second reader here (a web stream fed by the socket) would be one more place
// where the caps and a client hanging up mid-body are handled: the bodies of both routes are
// read on the TypeScript side, by lib/transports/http/body.ts's one reader, from Node's request.
// `next dev` keeps going through the route files. Anything these patterns do not match goes
// to Next unchanged.
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
export function directRoute(dir, toNext) {
  const serve = (req, res, route, m, handlers) => {
    if (!handlers.direct || !handlers[req.method ?? ""]) return false;
    void guarded(res, () => handlers.direct(req, res, route.params(m)));
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
