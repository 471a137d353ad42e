// Request bodies are capped here, in the front server (server.mjs), before any of the app
// reads them: the one place every request passes. next-auth, the sign-in link's confirmation
// and Inngest's handler read whole bodies without a limit, and Node reads to its end any body
// that an answer left unread, to keep the connection: before any sign-in, a few connections
// streaming hundreds of megabytes would hold the one process that also publishes and delivers
// webhooks. The API's operations and MCP (direct-routes.mjs) read theirs with caps and error
// shapes of their own (lib/transports/http/body.ts, the one body reader) and are not capped here.
//
// This is not a second reader: it keeps no bytes and hands none to anyone; it counts the
// chunks on their way to readers it does not control (Next's, next-auth's, Inngest's), which
// body.ts's reader cannot be put in front of, and it runs in the front server, which cannot
// import TypeScript. It follows body.ts's rule: a declared length over the cap is refused
// unread; a body without one is counted as it arrives and refused at the first chunk past the
// cap. A refusal is a 413 in the route's error shape (unless an answer went out already),
// after which no reader gets another byte and the connection closes (a lingering close).
import http from "node:http";
import { lingeringClose } from "./lingering-close.mjs";

const KiB = 1024;
const MiB = 1024 * KiB;
const kib = (max) => `${Math.floor(max / KiB)} KiB`;

const SHAPES = {
  // Every /api address's error body (lib/core/errors/present.ts), worded as readJsonBody words it.
  api: (max, origin) => ({
    type: "application/json; charset=utf-8",
    body: JSON.stringify({
      error: {
        code: "invalid_request",
        message: "The request body is too large.",
        hint: "Fix the fields listed in details and send the request again.",
        docs: `${origin}/docs/errors#invalid_request`,
        details: [{ path: "(body)", message: `The body is larger than ${kib(max)}` }],
      },
    }),
  }),
  // RFC 6749's, readable by a browser client as the endpoints' own errors are (lib/transports/oauth).
  oauth: (max) => ({
    type: "application/json",
    headers: { "Access-Control-Allow-Origin": "*", Pragma: "no-cache" },
    body: JSON.stringify({ error: "invalid_request", error_description: `The body is larger than ${kib(max)}.` }),
  }),
  // Pages and their forms: text that a browser shows as it is, and that Next's client reports
  // as the server action's error (it takes a text/plain answer's text as the message).
  text: (max) => ({ type: "text/plain", body: `This form is larger than ${kib(max)}, so it was not read. Go back, shorten it and send it again.\n` }),
};

// The first whose path matches. Paths are matched as sent: one that Next would decode to a
// route named here gets the last rule's cap, never none.
const RULES = [
  // Inngest's calls carry a run's event and step data: the most that Inngest documents for
  // a step's data.
  { path: /^\/api\/inngest(?:[/?]|$)/, max: 4 * MiB, shape: "api" },
  // next-auth's endpoints (forms of a few fields) and every other /api address.
  { path: /^\/api(?:[/?]|$)/, max: 64 * KiB, shape: "api" },
  // OAuth's endpoints that read a body: their own cap (lib/transports/oauth/client-auth.ts).
  { path: /^\/oauth\/(?:register|token|revoke)(?:[/?]|$)/, max: 64 * KiB, shape: "oauth" },
  // The composer's uploads (app/write/upload): upload_media's body, whose cap this is too
  // (base64 of the largest file, a 20 MB PDF, plus room for the other fields).
  { path: /^\/write\/upload(?:[?]|$)/, max: 28 * MiB, shape: "api" },
  // Sign-in and sign-up: a few fields each, the link's confirmation included.
  { path: /^\/(?:signin|signup)(?:[/?]|$)/, max: 64 * KiB, shape: "text" },
  // The owner's pages, whose forms are server actions: Next's own cap for those, so that a
  // field pasted too long still reaches its field error (the longest legit form, onboarding
  // at every field's maximum, is far below it).
  { path: /^/, max: 1 * MiB, shape: "text" },
];

/**
 * Caps the body of a request that Next is about to be given. True when it was refused at
 * once (a declared length over the cap): it must then go nowhere else.
 */
/** The cap on the body of a request to `url` (for tests: it must stay in step with the app's own caps). */
export const capOf = (url) => RULES.find((r) => r.path.test(url)).max;

export function bodyLimits(origin) {
  return (req, res) => {
    const rule = RULES.find((r) => r.path.test(req.url ?? "/"));
    const refuse = () => refuseBody(req, res, rule, origin);
    if (Number(req.headers["content-length"] ?? 0) > rule.max) {
      refuse();
      return true;
    }
    // Each chunk passes here, from the parser, before any reader sees it. Once the answer
    // has gone out, the rest is read only to keep the connection, and dropped.
    const push = req.push;
    let seen = 0;
    let answered = false;
    req.push = function (chunk, encoding) {
      if (chunk !== null && (seen += chunk.length) > rule.max) {
        refuse(); // the chunk goes nowhere, and the rest is read to be dropped
        return true;
      }
      return answered && chunk !== null ? true : push.call(this, chunk, encoding);
    };
    // Before Node's own listener, which would read an unread rest itself, uncounted.
    res.prependListener("finish", () => {
      if (req.complete) return;
      answered = true;
      req.resume();
      req.socket.resume();
    });
    return false;
  };
}

/**
 * Answers 413 on the connection itself, unless an answer went out already: Next may hold
 * `res` while it waits for the rest of the body, and sees the connection close as a client
 * that hung up. No reader gets another byte: the rest is dropped as the connection closes
 * (lingering-close.mjs), so the client reads the answer instead of a reset.
 */
function refuseBody(req, res, rule, origin) {
  const socket = req.socket;
  if (!res.headersSent) {
    const { type, body, headers = {} } = SHAPES[rule.shape](rule.max, origin);
    const head = { "Content-Type": type, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store", Connection: "close", ...headers };
    const lines = Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 413 ${http.STATUS_CODES[413]}\r\n${lines.join("")}\r\n${body}`);
  }
  lingeringClose(req);
}
