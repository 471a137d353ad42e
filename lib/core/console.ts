import { format } from "node:util";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { errorFacts, redactSecrets } from "@/lib/core/redact";

// Next prints a request's uncaught error with console.error, raw: a Server Action's failed
// insert shows the query's parameters, a new webhook's secret among them. Libraries and the
// front server print with it too. Once the app has started, every console.error and
// console.warn of the process is one line of the service's log instead: an error's facts
// (errorFacts), any other text without credentials.

const printed = new WeakSet<object>(); // errors a console line has logged
const reported = new WeakSet<object>(); // errors logRequestError has logged

const ANSI = /\u001b\[[0-9;]*m/g;
// Next's marks before an error or a warning.
const MARK = /^\s*[⨯⚠]\s*/;

function logged(level: "error" | "warn") {
  return (...args: unknown[]) => {
    const error = args.find((a): a is Error => a instanceof Error);
    // Next prints a request's error after onRequestError has logged it with its request.
    if (error && reported.has(error)) return;
    if (error) printed.add(error);
    const text = redactSecrets(
      format(...args.filter((a) => a !== error))
        .replace(ANSI, "")
        .replace(MARK, ""),
      300,
    );
    log(level, text || (error ? "unexpected error" : level), error ? errorFacts(error) : {});
  };
}

/** Every console.error and console.warn from now on goes to the log (once, at start); returns how to undo it. */
export function routeConsoleThroughLog(): () => void {
  config(); // an invalid configuration fails here, not inside the next error print
  const { error, warn } = console;
  console.error = logged("error");
  console.warn = logged("warn");
  return () => Object.assign(console, { error, warn });
}

type RequestFacts = { path: string; method: string };
type RouteFacts = { routePath?: string; routeType?: string };

/**
 * A request's uncaught error (Next's onRequestError), with the request it failed: its address
 * without the query (which may hold an authorization code), and the route.
 */
export function logRequestError(e: unknown, request: RequestFacts, route: RouteFacts) {
  const fields = { method: request.method, path: request.path.split("?")[0], route: route.routePath, type: route.routeType };
  const known = typeof e === "object" && e !== null;
  // Printed just before (Next prints first on some paths): the facts are on that line.
  if (known && printed.has(e)) return log("error", "request failed", fields);
  if (known) reported.add(e);
  log("error", "request failed", { ...fields, ...errorFacts(e) });
}
