import { randomUUID } from "node:crypto";
import { config } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { runOperation } from "@/lib/operations/run";
import { findOperation } from "@/lib/operations/registry";
import type { RateDecision } from "@/lib/adapters/ratelimit";
import { authenticateBearer } from "./auth";
import { MAX_BODY_BYTES, readJsonBody } from "./body";
import { largeBodyGate } from "./large-bodies";
import { presentError } from "@/lib/core/errors/present";
import { fromWebRequest, toWebResponse, type ApiAnswer, type ApiRequest } from "./exchange";
import { rateLimitHeaders } from "./rate-headers";

/**
 * `{base_url}/{operation}`: operation, method, token; then runOperation() (rate limit, body,
 * execute). Every failure leaves through the one error mapping below.
 */
export async function answerOperation(req: ApiRequest, name: string): Promise<ApiAnswer> {
  const requestId = randomUUID();
  const headers: Record<string, string> = { "X-Request-Id": requestId, "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8" };
  try {
    const op = findOperation(name);
    if (!op) {
      throw new AppError("unknown_operation", `There is no operation named "${name.slice(0, 100)}".`, `GET ${config().baseUrl} lists the operations.`);
    }
    if (req.method !== "POST") {
      headers.Allow = "POST";
      throw new AppError("method_not_allowed", `Operations accept only POST, not ${req.method}.`, `Send POST ${config().baseUrl}/${op.name} with a JSON body.`);
    }
    const caller = await authenticateBearer(req.header("authorization"), config().baseUrl);
    // A body past the usual cap (an upload's) takes one of the few places for such bodies until answered.
    const gate = (op.maxBodyBytes ?? 0) > MAX_BODY_BYTES ? largeBodyGate(caller.userId) : undefined;
    try {
      const out = await runOperation(caller, op, () => readJsonBody(req, op.maxBodyBytes, gate), {
        requestId,
        idempotencyKey: req.header("idempotency-key") ?? undefined,
        onRate: (rate: RateDecision) => Object.assign(headers, rateLimitHeaders(rate)),
      });
      // REST cannot ask the owner while the call waits: a needed approval is its 403 with the link.
      if (out.kind !== "done") return refused(out.kind === "needs_approval" ? out.refusal : out.answer, requestId, headers);
      return { status: 200, headers, body: JSON.stringify(out.result) };
    } finally {
      gate?.release();
    }
  } catch (e) {
    return refused(e, requestId, headers);
  }
}

/** Any refusal or failure, through the one error mapping. */
function refused(e: unknown, requestId: string, headers: Record<string, string>): ApiAnswer {
  const answer = presentError(e, requestId, "/api/v1");
  return { status: answer.status, headers: { ...headers, ...answer.headers }, body: JSON.stringify(answer.body) };
}

/** The same for a web Request: the route file (`next dev`, and `npm start` without its direct routes) and the tests. */
export async function handleOperation(req: Request, name: string): Promise<Response> {
  return toWebResponse(await answerOperation(fromWebRequest(req), name));
}

/** Any other address under the API: 404 not_found in the same error shape. */
export function notFoundResponse(): Response {
  const requestId = randomUUID();
  const answer = presentError(
    new AppError("not_found", "There is no API endpoint at this address.", `The API lives at ${config().baseUrl}; GET it for the list of operations.`),
    requestId,
  );
  const headers = { "X-Request-Id": requestId, "Content-Type": "application/json; charset=utf-8" };
  return toWebResponse({ status: answer.status, headers, body: JSON.stringify(answer.body) });
}
