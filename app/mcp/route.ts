import type { IncomingMessage, ServerResponse } from "node:http";
import { serveAsWeb } from "@/lib/transports/http/node";
import { handleMcp } from "@/lib/transports/mcp/handler";

// The Request alone: Next passes a second argument (the route's context) that is not a body.
const handler = (req: Request) => handleMcp(req);

export const POST = handler;
export const GET = handler;
export const DELETE = handler;
export const OPTIONS = handler;

/**
 * `npm start` (direct-routes.mjs) calls this for the methods above instead: the same handler,
 * given a web Request without a body and reading the body from Node's request.
 */
export const direct = (req: IncomingMessage, res: ServerResponse) => serveAsWeb(req, res, handleMcp);
