import { randomUUID } from "node:crypto";
import { config } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { runOperation } from "@/lib/operations/run";
import { findOperation } from "@/lib/operations/registry";
import type { RateDecision } from "@/lib/ratelimit";
import { authenticateRequest, resourceMetadataUrl, Unauthorized, wwwAuthenticate } from "./auth";
import { readJsonBody } from "./body";
import { errorBody, statusOf, toAppError } from "@/lib/errors/present";
import { rateLimitHeaders } from "./rate-headers";

const json = (status: number, body: unknown, headers: Headers) => {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
};

/**
 * `{base_url}/{operation}`: operation, method, token; then runOperation() (rate limit, body,
 * execute). Every failure leaves through the one error mapping below.
 */
export async function handleOperation(req: Request, name: string): Promise<Response> {
  const requestId = randomUUID();
  const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "no-store" });
  try {
    const op = findOperation(name);
    if (!op) {
      throw new AppError("unknown_operation", `There is no operation named "${name.slice(0, 100)}".`, `GET ${config().baseUrl} lists the operations.`);
    }
    if (req.method !== "POST") {
      headers.set("Allow", "POST");
      throw new AppError("method_not_allowed", `Operations accept only POST, not ${req.method}.`, `Send POST ${config().baseUrl}/${op.name} with a JSON body.`);
    }
    const caller = await authenticateRequest(req, config().baseUrl);
    const setRate = (rate: RateDecision) => {
      for (const [k, v] of Object.entries(rateLimitHeaders(rate))) headers.set(k, v);
    };
    const result = await runOperation(caller, op, () => readJsonBody(req, op.maxBodyBytes), {
      requestId,
      idempotencyKey: req.headers.get("idempotency-key") ?? undefined,
      onRate: setRate,
    });
    return json(200, result, headers);
  } catch (e) {
    const err = toAppError(e, requestId);
    if (err instanceof Unauthorized) headers.set("WWW-Authenticate", wwwAuthenticate(err, resourceMetadataUrl("/api/v1")));
    if (err.code === "temporarily_unavailable") headers.set("Retry-After", "5");
    return json(statusOf(err), errorBody(err), headers);
  }
}

/** Any other address under the API: 404 not_found in the same error shape. */
export function notFoundResponse(): Response {
  const err = new AppError(
    "not_found",
    "There is no API endpoint at this address.",
    `The API lives at ${config().baseUrl}; GET it for the list of operations.`,
  );
  return json(404, errorBody(err), new Headers({ "X-Request-Id": randomUUID() }));
}
