import { randomUUID } from "node:crypto";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { execute } from "@/lib/operations/execute";
import { findOperation } from "@/lib/operations/registry";
import { consumeRequest } from "@/lib/ratelimit";
import { authenticateRequest, resourceMetadataUrl, Unauthorized, wwwAuthenticate } from "./auth";
import { readJsonBody } from "./body";
import { errorBody, statusOf, toAppError } from "./errors";
import { rateLimitHeaders } from "./rate-headers";

const json = (status: number, body: unknown, headers: Headers) => {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers });
};

/**
 * `{base_url}/{operation}`: operation, method, token, rate limit, body; then the shared
 * execute(). Every failure leaves through the one error mapping below.
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
    const rate = await consumeRequest(caller.userId, caller.plan);
    for (const [k, v] of Object.entries(rateLimitHeaders(rate))) headers.set(k, v);
    if (!rate.allowed) {
      throw new AppError(
        "rate_limited",
        `Too many requests: this account may make ${rate.limit} requests a minute (REST and MCP together).`,
        `Wait ${rate.retryAfter} seconds (Retry-After) and try again.`,
      );
    }
    const input = await readJsonBody(req);
    const ctx = { db: await db(), caller, now: () => new Date(), requestId };
    const result = await execute(ctx, op, input, { idempotencyKey: req.headers.get("idempotency-key") ?? undefined });
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
  const err = new AppError("not_found", "There is no API endpoint at this address.", `The API lives at ${config().baseUrl}; GET it for the list of operations.`);
  return json(404, errorBody(err), new Headers({ "X-Request-Id": randomUUID() }));
}
