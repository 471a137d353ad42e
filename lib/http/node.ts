import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyNotReceived, type BodyGate } from "./body";
import type { ApiAnswer, ApiRequest } from "./exchange";

// `npm start` hands API calls to the operation handler straight from Node's request
// (direct-routes.mjs): the same handler the route file wraps for a web Request, with none of
// the web objects in between.

/** Node's request as the handler reads it. Repeated headers read as they would from a web Request's Headers. */
export function fromNodeRequest(req: IncomingMessage): ApiRequest {
  return {
    method: req.method ?? "GET",
    header: (name) => {
      const value = req.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    body: (maxBytes, gate) => readBody(req, maxBytes, gate),
  };
}

/**
 * The body as ApiRequest.body promises: a declared length over the cap is refused unread and
 * reading stops at the first chunk past it. What is left is read and dropped, so the answer
 * still arrives on an open connection (server.requestTimeout bounds a client that never stops).
 */
function readBody(req: IncomingMessage, maxBytes: number, gate?: BodyGate): Promise<Uint8Array | null> {
  const drop = () => void req.resume();
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxBytes) {
    drop();
    return Promise.resolve(null);
  }
  let admitted = !gate;
  if (gate && declared > gate.at) {
    try {
      gate.admit();
    } catch (e) {
      drop();
      return Promise.reject(e);
    }
    admitted = true;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => req.off("data", onData).off("end", onEnd).off("error", onError);
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (!admitted && size > gate!.at && size <= maxBytes) {
        try {
          gate!.admit();
          admitted = true;
        } catch (e) {
          settle();
          drop();
          return reject(e);
        }
      }
      if (size <= maxBytes) return void chunks.push(chunk);
      settle();
      drop();
      resolve(null);
    };
    const onEnd = () => {
      settle();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    // A client that hangs up before the end ('aborted', ECONNRESET), or a request timeout.
    const onError = () => {
      settle();
      reject(bodyNotReceived());
    };
    req.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/** Writes an answer on Node's response, with its length (not chunked: the answer is whole). */
export function sendAnswer(res: ServerResponse, answer: ApiAnswer) {
  const body = Buffer.from(answer.body);
  res.writeHead(answer.status, { ...answer.headers, "Content-Length": body.byteLength }).end(body);
}
