import type { IncomingMessage, ServerResponse } from "node:http";
import { answerOperation, handleOperation } from "@/lib/transports/http/operation";
import { fromNodeRequest, sendAnswer } from "@/lib/transports/http/node";

type Params = { params: Promise<{ operation: string }> };

// Every method goes to the one handler: it answers 405 for anything but POST (OPTIONS too,
// which Next would otherwise answer 204 itself: the API is not for browsers' scripts).
const handler = async (req: Request, { params }: Params) => handleOperation(req, (await params).operation);

export const POST = handler;
export const GET = handler;
export const PUT = handler;
export const PATCH = handler;
export const DELETE = handler;
export const OPTIONS = handler;

/**
 * `npm start` (direct-routes.mjs) calls this for the methods above instead: the same operation
 * handler, fed Node's request and writing Node's response, with no web Request or Response.
 */
export const direct = async (req: IncomingMessage, res: ServerResponse, params: { operation: string }) =>
  sendAnswer(res, await answerOperation(fromNodeRequest(req), params.operation));
