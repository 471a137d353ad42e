import type { Instrumentation } from "next";

// Runs once when the server starts: every console.error and console.warn of the process goes
// through the redacting log from here on (lib/core/console.ts); then it opens the database (applying
// migrations) and, on an empty database, creates the owner account and writes its password to DATA_DIR.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { routeConsoleThroughLog } = await import("./lib/core/console");
  routeConsoleThroughLog();
  const { startup } = await import("./lib/core/startup");
  await startup();
}

// A request's uncaught error (a page, a Server Action, a route): logged with its request,
// through the same redaction.
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { logRequestError } = await import("./lib/core/console");
  logRequestError(error, request, context);
};
